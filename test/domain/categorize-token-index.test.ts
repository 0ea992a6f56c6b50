/** The token index: ids found straight from a row are the ids of its token strings, in their order. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import { tokens, type Features } from '../../src/domain/categorization/features.js'
import { TokenIndex } from '../../src/domain/categorization/token-index.js'

const pool = generateDataset({ size: 4000, seed: 5 })
const featuresOf = (r: LabelledTransaction): Features => ({
  description: r.description,
  merchant_name: r.merchant_name,
  amount_minor: r.amount_minor,
  currency_exponent: 2,
})

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

/** `index.known(f)` against the string path's ids of `tokens(f)` (those the index holds, in order); the ids found. */
function expectStringPathIds(index: TokenIndex, f: Features): number[] {
  const expected = tokens(f)
    .map((t) => index.id(t, false))
    .filter((id) => id >= 0)
  const got: number[] = []
  index.known(f, got)
  expect(got).toEqual(expected)
  return got
}

describe('token index', () => {
  it('finds the ids of exactly the tokens(f) it holds, in their order, without building them', () => {
    fc.assert(
      fc.property(fc.array(features, { minLength: 1, maxLength: 40 }), fc.array(features, { maxLength: 40 }), (learnt, probes) => {
        const index = new TokenIndex()
        for (const f of learnt) for (const t of tokens(f)) index.id(t, true)
        for (const f of [...learnt, ...probes]) {
          const got = expectStringPathIds(index, f)
          for (const id of got) expect(tokens(f)).toContain(index.name(id))
        }
      }),
      { numRuns: 150 },
    )
  })

  it('gives each distinct token one id, and names it back', () => {
    const index = new TokenIndex()
    const all = pool.slice(0, 2000).flatMap((r) => tokens(featuresOf(r)))
    const ids = all.map((t) => index.id(t, true))
    const distinct = new Set(all)
    expect(index.size).toBe(distinct.size)
    expect(ids.map((id) => index.name(id))).toEqual(all)
  })
})

describe('token index, Latin letters with diacritics', () => {
  it('finds the ids of the string path for every character from U+0080 to U+024F, inside, before and after words', () => {
    const texts: string[] = []
    for (let c = 0x80; c < 0x250; c++) {
      const ch = String.fromCharCode(c)
      texts.push(`CAF${ch} x${ch}y ${ch}AB ab${ch} ${ch} 1${ch}2 ${ch}${ch}`, `M${ch}LLER GMBH`, `${ch}DE ${ch.toLowerCase()}de`)
    }
    const rows = texts.map((t, i) => ({ description: t, merchant_name: i % 2 ? t : null, amount_minor: -i * 100, currency_exponent: 2 }))
    const index = new TokenIndex()
    // Half the rows learnt, so that the others find known and unknown words alike.
    for (const f of rows.filter((_, i) => i % 2 === 0)) for (const t of tokens(f)) index.id(t, true)
    for (const f of rows) {
      const got = expectStringPathIds(index, f)
      expect(index.missed).toBe(tokens(f).length - got.length)
    }
  })
})
