/**
 * The model's fast paths against a reference: a naive Bayes scorer written plainly here (token
 * strings in a Map, every label summed, every posterior term an exp) over the model's own counts.
 * An import's `predictInto` (token ids found from the row's characters, the posterior summed from
 * the labels near the runner-up) and `predict` must give the reference's label and score on every
 * row, and `predict` its raw posterior bit for bit: on a generated corpus, on a kept (decoded)
 * model that went on learning, and on the text of the real bank files.
 */
import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quickScore, scoreOf, scoreTable, type CalibrationStep } from '../../src/domain/categorization/calibration.js'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import { tokens, type Features } from '../../src/domain/categorization/features.js'
import { decodeModel, encodeModel } from '../../src/domain/categorization/model-snapshot.js'
import { CategoryModel, type Example, type ModelState } from '../../src/domain/categorization/model.js'
import { currencyExponent, isCurrency } from '../../src/kernel/currencies.js'
import { parseStatement } from '../../src/import/statements/index.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'

const ALPHA = 0.1
const floor3 = (x: number) => Math.floor(x * 1000) / 1000

/** The model's predictions, worked out from its state the plain way. */
function reference(s: ModelState): (f: Features) => { label: string; score: number; raw: number } | null {
  const L = s.labels.length
  const ids = new Map(s.tokens.map((t, i) => [t, i]))
  const tokenSums = s.tokens.map((_, t) => s.counts.subarray(t * L, (t + 1) * L).reduce((a, b) => a + b, 0))
  const vocabulary = tokenSums.filter((n) => n > 0).length
  const totals = s.labels.map((_, l) => s.tokens.reduce((sum, _t, t) => sum + s.counts[t * L + l], 0))
  const active = s.labels.filter((_, l) => s.docs[l] > 0).length
  const logTotal = Math.log(s.examples + active)
  const table = scoreTable(s.calibration)
  return (f) => {
    if (active === 0) return null
    const known = tokens(f)
      .map((t) => ids.get(t))
      .filter((id): id is number => id !== undefined && tokenSums[id] > 0)
    const joint = s.labels.map((_, l) => {
      if (!(s.docs[l] > 0)) return Number.NEGATIVE_INFINITY
      let x = Math.log(s.docs[l] + 1) - logTotal - known.length * Math.log(totals[l] + ALPHA * vocabulary)
      for (const id of known) x += Math.log(s.counts[id * L + l] + ALPHA)
      return x
    })
    let top = -1
    for (let l = 0; l < L; l++) {
      if (joint[l] === Number.NEGATIVE_INFINITY) continue
      if (top < 0 || joint[l] > joint[top] || (joint[l] === joint[top] && s.labels[l] < s.labels[top])) top = l
    }
    let rest = 0
    for (let l = 0; l < L; l++) if (l !== top) rest += Math.exp(joint[l] - joint[top])
    const raw = 1 / (1 + rest)
    const logit = rest === 0 ? Number.POSITIVE_INFINITY : -Math.log(rest)
    return { label: s.labels[top], score: floor3(scoreOf(table, logit, raw)), raw }
  }
}

function expectAsReference(model: CategoryModel, probes: Features[]): void {
  const predict = reference(model.toState())
  const out = { label: '', score: -1 }
  for (const f of probes) {
    const want = predict(f)
    expect(model.predictInto(f, out)).toBe(want !== null)
    if (!want) continue
    expect({ ...out, description: f.description }).toEqual({ label: want.label, score: want.score, description: f.description })
    const p = model.predict(f, { explain: false })
    expect([p?.label, p?.score, p?.raw]).toEqual([want.label, want.score, want.raw])
  }
}

const featuresOf = (r: LabelledTransaction, merchant = false): Features => ({
  description: r.description,
  merchant_name: merchant ? r.merchant_name : null,
  amount_minor: r.amount_minor,
  currency_exponent: 2,
})
const exampleOf = (r: LabelledTransaction, merchant = false): Example => ({ ...featuresOf(r, merchant), label: r.category })

/** Each (label, token text) pair's count in a model's state, without zeros. */
function countsOf(s: ModelState): Map<string, number> {
  const out = new Map<string, number>()
  for (const [i, t] of s.tokens.entries())
    for (const [l, label] of s.labels.entries()) {
      const c = s.counts[i * s.labels.length + l]
      if (c !== 0) out.set(`${label} ${t}`, c)
    }
  return out
}

describe('counts against the reference', () => {
  it("learning finds a known row's token ids from its characters: the counts are those of its token strings", () => {
    const rows = generateDataset({ size: 3000, seed: 14 })
    const model = CategoryModel.train(rows.slice(0, 2000).map((r, i) => exampleOf(r, i % 2 === 0)))
    const added = rows.slice(2000).map((r, i) => exampleOf(r, i % 3 === 0))
    for (const e of added) model.add(e)
    for (const e of added.slice(0, 300)) model.remove(e)
    const want = new Map<string, number>()
    const count = (e: Example, by: number) => {
      for (const t of tokens(e)) {
        const key = `${e.label} ${t}`
        const n = (want.get(key) ?? 0) + by
        if (n === 0) want.delete(key)
        else want.set(key, n)
      }
    }
    for (const [i, r] of rows.slice(0, 2000).entries()) count(exampleOf(r, i % 2 === 0), 1)
    for (const e of added) count(e, 1)
    for (const e of added.slice(0, 300)) count(e, -1)
    expect(countsOf(model.toState())).toEqual(want)
  })
})

describe('predictions against the reference', () => {
  it('on a generated corpus: every row, with and without merchants, trained, then learning, then kept', () => {
    const train = generateDataset({ size: 3000, seed: 11 })
    const probes = generateDataset({ size: 1500, seed: 12 })
    const model = CategoryModel.train(train.map((r, i) => exampleOf(r, i % 3 === 0)))
    const all = probes.flatMap((r) => [featuresOf(r), featuresOf(r, true)])
    expectAsReference(model, all)
    // Learning moves every sum (counts, priors, the vocabulary) but not the calibration map.
    for (const r of probes.slice(0, 300)) model.add(exampleOf(r))
    for (const r of train.slice(0, 200)) model.remove(exampleOf(r, train.indexOf(r) % 3 === 0))
    expectAsReference(model, all.slice(0, 1200))
    const kept = decodeModel(encodeModel(model)) as CategoryModel
    expectAsReference(kept, all.slice(1200))
    // Uncalibrated (few examples): the raw posterior capped, from the full sum.
    expectAsReference(CategoryModel.train(train.slice(0, 40).map((r) => exampleOf(r))), all.slice(0, 400))
  })

  it.skipIf(!HAS_BANK_FILES)('on the real bank files: every statement line, and every line of every file as a description', () => {
    const probes: Features[] = []
    for (const folder of ['camt053', 'mt940', 'ofx', 'qif', 'csv']) {
      for (const name of readdirSync(bankFile(folder))) {
        const bytes = new Uint8Array(readFileSync(bankFile(folder, name)))
        if (folder !== 'csv') {
          for (const st of parseStatement(bytes, { fileName: name, defaultCurrency: 'EUR' }).statements)
            for (const t of st.transactions)
              probes.push({
                description: t.memo ?? t.payee ?? '',
                merchant_name: t.payee ?? null,
                amount_minor: t.amountMinor,
                currency_exponent: isCurrency(t.currency) ? currencyExponent(t.currency) : 2,
              })
        }
        // Raw lines: other scripts, accents, markup, separators, as the file spells them.
        const lines = new TextDecoder('latin1').decode(bytes).split(/\r\n|\r|\n/)
        lines.forEach((line, i) => {
          if (line.trim())
            probes.push({ description: line, merchant_name: null, amount_minor: (i % 7) * -1250 + 300, currency_exponent: 2 })
        })
      }
    }
    expect(probes.length).toBeGreaterThan(1000)
    // Half of them labelled (by their first word and sign) beside generated rows, so their words are known.
    const labelled = probes
      .filter((_, i) => i % 2 === 0)
      .map((f) => ({ ...f, label: `${f.amount_minor < 0 ? 'out' : 'in'} ${f.description.trim().split(/\s+/)[0]}`.slice(0, 12) }))
    const model = CategoryModel.train([...generateDataset({ size: 2000, seed: 13 }).map((r) => exampleOf(r, true)), ...labelled])
    expectAsReference(model, probes)
  })
})

describe('quickScore: the score from the labels near the runner-up', () => {
  /** The exact score, as the full sum gives it. */
  function exact(table: ReturnType<typeof scoreTable>, s: Float64Array, top: number): number {
    let rest = 0
    for (let l = 0; l < s.length; l++) if (l !== top) rest += Math.exp(s[l] - s[top])
    return scoreOf(table, rest === 0 ? Number.POSITIVE_INFINITY : -Math.log(rest), 1 / (1 + rest))
  }

  it('is the exact score or NaN, also with a step starting a hair from the exact log-odds', () => {
    let settled = 0
    let unsettled = 0
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -80, max: 0, noNaN: true }), fc.constant(Number.NEGATIVE_INFINITY)), {
          minLength: 2,
          maxLength: 40,
        }),
        fc.array(fc.double({ min: -1e-6, max: 1e-6, noNaN: true }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.double({ min: -5, max: 40, noNaN: true }), { maxLength: 12 }),
        (sums, nudges, others) => {
          const s = Float64Array.from(sums)
          const order = [...s.keys()].filter((l) => s[l] > Number.NEGATIVE_INFINITY).sort((a, b) => s[b] - s[a] || a - b)
          if (order.length < 2) return
          const [top, second] = order
          let rest = 0
          for (let l = 0; l < s.length; l++) if (l !== top) rest += Math.exp(s[l] - s[top])
          const logit = -Math.log(rest)
          // Steps at the exact log-odds (nudged by far less than what was left out) and elsewhere.
          const starts = [...new Set([...nudges.map((d) => logit + d), ...others])].sort((a, b) => a - b)
          const steps: CalibrationStep[] = starts.map((lo, i) => ({
            lo,
            hi: lo,
            count: 1,
            correct: 1,
            score: (i + 1) / (starts.length + 1),
          }))
          const table = scoreTable(steps)
          const q = quickScore(table, s, s.length, top, second)
          if (Number.isNaN(q)) unsettled++
          else {
            settled++
            expect(q).toBe(exact(table, s, top))
          }
        },
      ),
      { numRuns: 3000 },
    )
    // Both ways were taken: the check above is not vacuous.
    expect(settled).toBeGreaterThan(100)
    expect(unsettled).toBeGreaterThan(100)
  })

  it('leaves a map that is not monotone, or no runner-up, to the full sum', () => {
    const s = Float64Array.from([-1, -2, -30])
    const falling = scoreTable([
      { lo: -10, hi: 0, count: 5, correct: 5, score: 0.9 },
      { lo: 0.5, hi: 9, count: 5, correct: 1, score: 0.2 },
    ])
    expect(falling?.monotone).toBe(false)
    expect(quickScore(falling, s, 3, 0, 1)).toBeNaN()
    const rising = scoreTable([
      { lo: -10, hi: 0, count: 5, correct: 1, score: 0.2 },
      { lo: 0.5, hi: 9, count: 5, correct: 5, score: 0.9 },
    ])
    expect(quickScore(rising, s, 3, 0, 1)).toBe(0.9)
    expect(quickScore(rising, s, 3, 0, -1)).toBeNaN()
    expect(quickScore(null, s, 3, 0, 1)).toBeNaN()
  })
})
