/**
 * The kept model: a model taken from its snapshot predicts exactly as a fresh training on the same
 * rows (label, score, raw posterior and explanation), and keeps learning as the original does.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import type { Features } from '../../src/domain/categorization/features.js'
import { decodeModel, encodeModel } from '../../src/domain/categorization/model-snapshot.js'
import { CategoryModel, type Example } from '../../src/domain/categorization/model.js'

const pool = generateDataset({ size: 4000, seed: 5 })
const featuresOf = (r: LabelledTransaction): Features => ({
  description: r.description,
  merchant_name: r.merchant_name,
  amount_minor: r.amount_minor,
  currency_exponent: 2,
})
const exampleOf = (r: LabelledTransaction): Example => ({ ...featuresOf(r), label: r.category })

// Text that exercises the scanner: case, digits (reference-like words are dropped), separators, non-ASCII.
const piece = fc.constantFrom(
  'AMAZON',
  'amazon',
  'Mkt',
  'a',
  'x1',
  'AB12',
  'ref123456',
  'Café',
  'MÜLLER',
  'ﬁle',
  'straße',
  '_',
  ':',
  '  ',
  '-',
  '/',
  '42',
  'b:x_y',
)
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 6 })), { maxLength: 9 }).map((p) => p.join(' '))
const amount = fc.oneof(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.constantFrom(0, 100, -100, 10_000, -250_000))
const features = fc.oneof(
  fc.record({
    description: text,
    merchant_name: fc.option(text),
    amount_minor: amount,
    currency_exponent: fc.constantFrom(0, 2, 3, undefined),
  }),
  fc.integer({ min: 0, max: pool.length - 1 }).map((i) => featuresOf(pool[i])),
)

describe('kept model', () => {
  it('a model taken from its snapshot predicts exactly as a fresh training on the same rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: pool.length - 400 }),
        fc.integer({ min: 1, max: 400 }),
        fc.array(features, { minLength: 1, maxLength: 30 }),
        (from, n, probes) => {
          const rows = pool.slice(from, from + n).map(exampleOf)
          const kept = decodeModel(encodeModel(CategoryModel.train(rows)))
          const fresh = CategoryModel.train(rows)
          expect(kept).not.toBeNull()
          expect(kept?.exampleCount).toBe(fresh.exampleCount)
          expect(kept?.vocabularySize).toBe(fresh.vocabularySize)
          expect(kept?.calibrationTable()).toEqual(fresh.calibrationTable())
          for (const p of [...probes, ...pool.slice(0, 50).map(featuresOf)]) expect(kept?.predict(p)).toEqual(fresh.predict(p))
        },
      ),
      { numRuns: 40 },
    )
  })

  it("an import's predictInto gives predict's label and score, calibrated or not, fresh or kept", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: pool.length - 400 }),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        fc.array(features, { minLength: 1, maxLength: 30 }),
        (from, n, calibrate, probes) => {
          const fresh = CategoryModel.train(pool.slice(from, from + n).map(exampleOf), { calibrate })
          const kept = decodeModel(encodeModel(fresh)) as CategoryModel
          const out = { label: '', score: -1 }
          for (const m of [fresh, kept])
            for (const p of [...probes, ...pool.slice(0, 50).map(featuresOf)]) {
              const want = m.predict(p, { explain: false })
              expect(m.predictInto(p, out)).toBe(true)
              expect(out).toEqual({ label: want?.label, score: want?.score })
            }
        },
      ),
      { numRuns: 40 },
    )
    expect(new CategoryModel().predictInto(featuresOf(pool[0]), { label: '', score: 0 })).toBe(false)
  })

  it('goes on learning as the original: the same predictions after the same corrections', () => {
    const rows = pool.slice(0, 1500).map(exampleOf)
    const original = CategoryModel.train(rows)
    const kept = decodeModel(encodeModel(original)) as CategoryModel
    const changes = pool.slice(1500, 1700).map(exampleOf)
    for (const m of [original, kept]) {
      for (const e of rows.slice(0, 100)) m.remove(e)
      for (const e of changes) m.add({ ...e, label: `${e.label} (corrected)` })
    }
    for (const r of pool.slice(2000, 2300)) expect(kept.predict(featuresOf(r))).toEqual(original.predict(featuresOf(r)))
    // And a snapshot of the changed model is that model.
    const again = decodeModel(encodeModel(original)) as CategoryModel
    for (const r of pool.slice(2000, 2300)) expect(again.predict(featuresOf(r))).toEqual(original.predict(featuresOf(r)))
  })

  it('refuses text that is not a snapshot of this format', () => {
    expect(decodeModel('not json')).toBeNull()
    expect(decodeModel(JSON.stringify({ format: 99 }))).toBeNull()
  })
})
