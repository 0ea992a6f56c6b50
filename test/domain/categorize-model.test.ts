import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateDataset } from '../../src/domain/categorization/dataset.js'
import { labelOf, toExample } from '../../src/domain/categorization/evaluate.js'
import { featureWords, magnitudeBucket, tokens, type Features } from '../../src/domain/categorization/features.js'
import { CategoryModel, type Example, type Prediction } from '../../src/domain/categorization/model.js'

const rows = generateDataset({ size: 3000, seed: 42 })
const examples = rows.map(toExample)

const f = (description: string, merchant_name: string | null = null, amount_minor = -1234, currency_exponent?: number): Features => ({
  description,
  merchant_name,
  amount_minor,
  currency_exponent,
})

/** Predictions compared across models: labels, scores and explanations exactly, raw to 12 digits. */
function expectSamePredictions(a: CategoryModel, b: CategoryModel, probes: Features[]): void {
  for (const probe of probes) {
    const pa = a.predict(probe) as Prediction
    const pb = b.predict(probe) as Prediction
    expect(pb.label).toBe(pa.label)
    expect(pb.score).toBe(pa.score)
    expect(pb.raw).toBeCloseTo(pa.raw, 12)
    expect(pb.explanation.map((e) => e.token)).toEqual(pa.explanation.map((e) => e.token))
  }
}

describe('tokens', () => {
  it('lower-cases, folds compatibility forms and strips diacritics', () => {
    const t = tokens(f('Café MÜLLER Straße ＡＭＡＺＯＮ ﬁle', null))
    expect(t).toEqual(expect.arrayContaining(['cafe', 'muller', 'strasse', 'amazon', 'file']))
    expect(t.some((x) => /[A-ZÀ-ÿ]/.test(x))).toBe(false)
  })

  it('drops digit runs, reference-like codes and 1-character words, keeps short mixed words', () => {
    const t = tokens(f('POS 12345 AB12CD34 STORE #0042 X 1und1 o2 REF T0123ABC 12/03', null))
    expect(t).toEqual(expect.arrayContaining(['pos', 'store', 'ref', '1und1', 'o2']))
    for (const gone of ['12345', 'ab12cd34', '0042', 'x', 't0123abc', '12', '03']) expect(t).not.toContain(gone)
  })

  it('prefixes merchant words so they count apart from the description, and adds a few bigrams', () => {
    const t = tokens(f('CARD PAYMENT STARBUCKS SEATTLE', 'Starbucks Coffee'))
    expect(t).toEqual(expect.arrayContaining(['starbucks', 'm:starbucks', 'm:coffee', 'b:card_payment', 'b:payment_starbucks']))
    expect(t).not.toContain('coffee')
    expect(t.filter((x) => x.startsWith('b:')).length).toBeLessThanOrEqual(4)
  })

  it('adds the sign, the order of magnitude with the sign, and a round-amount marker', () => {
    expect(tokens(f('x', null, -1999))).toEqual(['s:out', 'a:out:<100'])
    expect(tokens(f('x', null, 250_000))).toEqual(['s:in', 'a:in:<10k', 'a:round'])
    expect(tokens(f('x', null, 0))).toEqual(['s:zero', 'a:zero:<1'])
    expect(tokens(f('x', null, 5_000, 0))).toEqual(['s:in', 'a:in:<10k', 'a:round'])
  })
})

describe("featureWords: a suggestion's reasons as a person reads them", () => {
  it('every kind of feature in words, never its code', () => {
    expect(
      ['s:out', 's:in', 'a:out:<100', 'a:in:<1k', 'a:out:>=100k', 'a:round', 'm:uber', 'b:coffee_beans', 'coffee'].map(featureWords),
    ).toEqual([
      'sign: money out',
      'sign: money in',
      'amount under 100',
      'amount under 1,000',
      'amount 100,000 or more',
      'a round amount',
      'merchant "uber"',
      'words "coffee beans"',
      'word "coffee"',
    ])
    const row: Features = { description: 'Coffee beans', merchant_name: 'Bean Co', amount_minor: -120000, currency_exponent: 2 }
    for (const t of tokens(row)) expect(featureWords(t)).not.toMatch(/^[sabm]:/)
  })
})

describe('magnitudeBucket (integer arithmetic only)', () => {
  it.each([
    [99, 2, '<1'],
    [100, 2, '<10'],
    [999, 2, '<10'],
    [1000, 2, '<100'],
    [-1000, 2, '<100'],
    [99_999, 2, '<1k'],
    [100_000, 2, '<10k'],
    [999_999, 2, '<10k'],
    [1_000_000, 2, '<100k'],
    [10_000_000, 2, '>=100k'],
    [9, 0, '<10'],
    [10, 0, '<100'],
    [1000, 0, '<10k'],
    [999, 3, '<1'],
    [1000, 3, '<10'],
    [100_000_000, 3, '>=100k'],
    [999_999_999_999_999, 2, '>=100k'],
  ])('%i minor units with exponent %i is %s', (minor, exponent, bucket) => {
    expect(magnitudeBucket(minor, exponent)).toBe(bucket)
  })

  it('agrees with a count of decimal digits for any safe integer (Math.log(1000) / Math.LN10 says 2.99...)', () => {
    const LABELS = ['<1', '<10', '<100', '<1k', '<10k', '<100k']
    const byDigits = (minor: number, exponent: number) => {
      const digits = BigInt(minor).toString().replace('-', '')
      const j = digits === '0' ? 0 : digits.length - exponent // |amount| < 10^j major units
      return j <= 0 ? '<1' : j >= 6 ? '>=100k' : LABELS[j]
    }
    fc.assert(
      fc.property(
        fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
        fc.integer({ min: 0, max: 3 }),
        (minor, exponent) => {
          expect(magnitudeBucket(minor, exponent)).toBe(byDigits(minor, exponent))
        },
      ),
      { numRuns: 2000 },
    )
    // Exact powers of ten and their neighbours: the boundaries a float logarithm gets wrong.
    for (let exponent = 0; exponent <= 3; exponent++) {
      for (let p = 0; p <= 15; p++) {
        const minor = Number(10n ** BigInt(p))
        for (const m of [minor - 1, minor, -minor]) expect(magnitudeBucket(m, exponent)).toBe(byDigits(m, exponent))
      }
    }
  })

  it('refuses amounts that are not safe integers instead of rounding them', () => {
    expect(() => magnitudeBucket(12.5, 2)).toThrow(RangeError)
    expect(() => magnitudeBucket(2 ** 53, 2)).toThrow(RangeError)
    expect(() => magnitudeBucket(100, 1.5)).toThrow(RangeError)
  })
})

describe('CategoryModel', () => {
  it('predicts null until it knows a label, and again once everything is removed', () => {
    const empty = CategoryModel.train([])
    expect(empty.predict(f('STARBUCKS'))).toBeNull()
    expect([empty.exampleCount, empty.labelCount, empty.vocabularySize]).toEqual([0, 0, 0])
    const e: Example = { ...f('STARBUCKS STORE SEATTLE', 'Starbucks'), label: 'meals' }
    empty.add(e)
    expect(empty.predict(f('anything'))?.label).toBe('meals')
    empty.remove(e)
    expect(empty.predict(f('STARBUCKS'))).toBeNull()
    expect([empty.exampleCount, empty.labelCount, empty.vocabularySize]).toEqual([0, 0, 0])
  })

  it('never goes negative: removing what was not added, or twice, leaves the counts alone', () => {
    const m = CategoryModel.train([], { calibrate: false })
    const e: Example = { ...f('UBER TRIP'), label: 'travel' }
    m.remove(e)
    m.add(e)
    m.remove(e)
    m.remove(e)
    m.remove({ ...e, label: 'unknown' })
    expect([m.exampleCount, m.labelCount, m.vocabularySize]).toEqual([0, 0, 0])
    m.add(e)
    expect([m.exampleCount, m.labelCount]).toEqual([1, 1])
    expect(m.vocabularySize).toBe(tokens(e).length)
  })

  it('learning one by one, in another order, equals training from scratch on the same examples', () => {
    const batch = CategoryModel.train(examples, { calibrate: false })
    const incremental = CategoryModel.train([], { calibrate: false })
    for (let i = examples.length - 1; i >= 0; i--) incremental.add(examples[i])
    expect([incremental.exampleCount, incremental.labelCount, incremental.vocabularySize]).toEqual([
      batch.exampleCount,
      batch.labelCount,
      batch.vocabularySize,
    ])
    const probes = generateDataset({ size: 300, seed: 43 }).map(toExample)
    expectSamePredictions(batch, incremental, probes)
  })

  it('adding and then removing examples equals never having seen them', () => {
    const kept = examples.slice(0, 2000)
    const extra = examples.slice(2000)
    const clean = CategoryModel.train(kept, { calibrate: false })
    const dirty = CategoryModel.train([...kept, ...extra], { calibrate: false })
    const probes = generateDataset({ size: 300, seed: 44 }).map(toExample)
    // Seeing more rows changes some predictions; taking them back restores every one.
    expect(probes.some((p) => dirty.predict(p)!.raw !== clean.predict(p)!.raw)).toBe(true)
    for (const e of extra) dirty.remove(e)
    expect([dirty.exampleCount, dirty.labelCount, dirty.vocabularySize]).toEqual([
      clean.exampleCount,
      clean.labelCount,
      clean.vocabularySize,
    ])
    expectSamePredictions(clean, dirty, probes)
  })

  it('a correction (remove the old label, add the new) moves the prediction', () => {
    const m = CategoryModel.train(examples, { seed: 1 })
    const staples = examples.filter((e) => e.merchant_name === 'Staples')
    expect(staples.length).toBeGreaterThan(3)
    const probe = f('VISA DEBIT STAPLES 0815 BOSTON MA', 'Staples', -4599)
    const before = m.predict(probe)!
    expect(before.label).toBe(staples[0].label)
    const corrected = 'Equipment purchase|capital_expenditure|investing'
    expect(corrected).not.toBe(before.label)
    for (const e of staples) {
      m.remove(e)
      m.add({ ...e, label: corrected })
    }
    const after = m.predict(probe)!
    expect(after.label).toBe(corrected)
    expect(after.explanation.map((e) => e.token)).toEqual(expect.arrayContaining(['m:staples']))
    expect(m.exampleCount).toBe(examples.length)
  })

  it('is deterministic: same examples and seed, same model and predictions', () => {
    const a = CategoryModel.train(examples, { seed: 7 })
    const b = CategoryModel.train(examples, { seed: 7 })
    expect(b.calibrationTable()).toEqual(a.calibrationTable())
    const probes = generateDataset({ size: 200, seed: 45 }).map(toExample)
    expect(probes.map((p) => b.predict(p))).toEqual(probes.map((p) => a.predict(p)))
  })

  it('explains a prediction with the tokens that favour it over the runner-up, strongest first', () => {
    const m = CategoryModel.train(examples, { seed: 1 })
    const p = m.predict(f('CARD PAYMENT STARBUCKS STORE 0815 LONDON', 'Starbucks', -455))!
    expect(p.label).toBe(
      labelOf({ category: 'Meals & entertainment', accounting_category: 'operating_expenses', cash_flow_category: 'operations' }),
    )
    expect(p.explanation.length).toBeGreaterThan(0)
    expect(p.explanation.length).toBeLessThanOrEqual(5)
    expect(p.explanation.map((e) => e.token)).toEqual(expect.arrayContaining(['starbucks', 'm:starbucks']))
    const weights = p.explanation.map((e) => e.weight)
    expect(weights.every((w) => w > 0)).toBe(true)
    expect([...weights].sort((x, y) => y - x)).toEqual(weights)
    // Noise words of the bank line are not what decides it.
    expect(p.explanation[0].token).not.toBe('card')
    // An incoming amount with invoice words points to revenue, and the sign is part of why.
    const q = m.predict(f('SEPA-GUTSCHRIFT NORD ANALYTICS GMBH RE-NR 2024-118', null, 1_250_000))!
    expect(q.label.startsWith('Customer payments|revenue|')).toBe(true)
    expect(q.explanation.map((e) => e.token).some((t) => t.startsWith('s:in') || t.startsWith('a:in') || t === 'gutschrift')).toBe(true)
  })

  it('gives probabilities in [0, 1] (3 decimals) that rise with the raw posterior', () => {
    const m = CategoryModel.train(examples, { seed: 3 })
    const probes = generateDataset({ size: 500, seed: 46 }).map(toExample)
    const preds = probes.map((p) => m.predict(p)!)
    for (const p of preds) {
      expect(p.score).toBeGreaterThanOrEqual(0)
      expect(p.score).toBeLessThanOrEqual(1)
      expect(Math.round(p.score * 1000) / 1000).toBe(p.score)
      expect(p.raw).toBeGreaterThan(0)
      expect(p.raw).toBeLessThanOrEqual(1)
    }
    const byRaw = [...preds].sort((a, b) => a.raw - b.raw)
    for (let i = 1; i < byRaw.length; i++)
      if (byRaw[i].raw > byRaw[i - 1].raw) expect(byRaw[i].score).toBeGreaterThanOrEqual(byRaw[i - 1].score)
    // Raw NB posteriors are over-confident; the calibrated scores are not.
    const meanRaw = preds.reduce((s, p) => s + p.raw, 0) / preds.length
    const meanScore = preds.reduce((s, p) => s + p.score, 0) / preds.length
    expect(meanScore).toBeLessThan(meanRaw)
  })

  it('keeps scores well below 0.9 when it is not calibrated (option off, or under 50 examples)', () => {
    const probes = examples.slice(0, 300)
    const off = CategoryModel.train(examples, { calibrate: false })
    expect(off.calibrationTable()).toEqual([])
    const tiny = CategoryModel.train(examples.slice(0, 40))
    expect(tiny.calibrationTable()).toEqual([])
    for (const m of [off, tiny]) {
      const scores = probes.map((p) => m.predict(p)!.score)
      expect(Math.max(...scores)).toBeLessThanOrEqual(0.5)
      expect(Math.max(...scores)).toBeGreaterThan(0)
    }
    // The same data calibrated does reach high scores where the evidence is strong.
    const on = CategoryModel.train(examples, { seed: 1 })
    expect(Math.max(...probes.map((p) => on.predict(p)!.score))).toBeGreaterThan(0.9)
  })

  it('fits its calibration on a bounded, held-out sample, monotone in confidence', () => {
    const m = CategoryModel.train(examples, { seed: 2, folds: 4, maxCalibrationSamples: 1000 })
    const table = m.calibrationTable()
    expect(table.reduce((s, b) => s + b.count, 0)).toBe(1000)
    for (let i = 0; i < table.length; i++) {
      expect(table[i].from).toBeLessThanOrEqual(table[i].to)
      expect(table[i].accuracy).toBeGreaterThanOrEqual(0)
      expect(table[i].accuracy).toBeLessThanOrEqual(1)
      if (i > 0) {
        expect(table[i].from).toBeGreaterThanOrEqual(table[i - 1].to)
        expect(table[i].accuracy).toBeGreaterThan(table[i - 1].accuracy)
      }
    }
    // Held out means imperfect: rows predicted with their own counts removed are sometimes wrong.
    expect(table[0].accuracy).toBeLessThan(0.9)
    // Cross-validation puts the counts back exactly: same posteriors as a model trained without it.
    const plain = CategoryModel.train(examples, { calibrate: false })
    for (const e of examples.slice(0, 200)) {
      const [a, b] = [plain.predict(e)!, m.predict(e)!]
      expect([b.label, b.raw]).toEqual([a.label, a.raw])
    }
  })

  it('copes with a single label and odd calibration options', () => {
    const one = CategoryModel.train(
      examples.filter((e) => e.label === examples[0].label),
      { seed: 1 },
    )
    const p = one.predict(f('SOMETHING NEVER SEEN'))!
    expect(p.label).toBe(examples[0].label)
    expect(p.raw).toBe(1)
    expect(p.score).toBeGreaterThanOrEqual(0)
    expect(p.score).toBeLessThanOrEqual(1)
    for (const opts of [{ folds: Number.NaN }, { folds: 1 }, { folds: 1e9 }, { maxCalibrationSamples: 0 }, { maxCalibrationSamples: 60 }]) {
      const m = CategoryModel.train(examples.slice(0, 500), opts)
      expect(m.calibrationTable().length).toBeGreaterThan(0)
      const score = m.predict(examples[600])!.score
      expect(score >= 0 && score <= 1).toBe(true)
    }
  })

  it('add and remove leave the calibration map as it was fitted', () => {
    const m = CategoryModel.train(examples.slice(0, 1500), { seed: 5 })
    const table = m.calibrationTable()
    for (const e of examples.slice(1500, 1600)) m.add(e)
    for (const e of examples.slice(0, 100)) m.remove(e)
    expect(m.calibrationTable()).toEqual(table)
    expect(m.exampleCount).toBe(1500)
  })
})
