/**
 * The one-test CSV record (src/cli/csv-record.ts) and the amount read without a BigInt
 * (showAmount on a JSON number, src/cli/money.ts) write the same text as the general paths.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { printableCsvLine } from '../../src/cli/csv-record.js'
import { formatMoney, minorOf, showAmount, showMinor } from '../../src/cli/money.js'
import { CURRENCY_CODES } from '../../src/kernel/currencies.js'
import { minorToNumber } from '../../src/kernel/money.js'
import { csvLine } from '../../src/kernel/csv-write.js'
import { printableText } from '../../src/kernel/terminal-text.js'

const general = (texts: string[]) => csvLine(texts.map(printableText))

const FIELDS = [
  '',
  'plain',
  'a,b',
  'say "hi"',
  'line\nfeed',
  'cr\r',
  'crlf\r\n',
  'tab\t',
  '\x1b[31m',
  '\x7f\x9b',
  '\u202eevil',
  '\u2028',
  '=1+1',
  '+5',
  '-12.50',
  '-12.50 USD',
  '@me',
  '-x',
  '\t=cmd',
  '💸 café 東京',
  "'quoted",
]

describe('printableCsvLine', () => {
  it('is csvLine over printableText for hand-picked fields, alone and together', () => {
    for (const a of FIELDS) {
      expect(printableCsvLine([a])).toBe(general([a]))
      for (const b of FIELDS) expect(printableCsvLine([a, b, 'x'])).toBe(general([a, b, 'x']))
    }
  })

  it('is csvLine over printableText for records that repeat fields in the same place and in others', () => {
    // Fields seen before are taken from what was written of them: the same text in the same place only.
    const pool = ['Reserve', '-12.50', '=x', 'a,b', '', 'Rent', '\x1b', 'posted', '@me', '-x']
    const pick = fc.constantFrom(...pool)
    fc.assert(
      fc.property(fc.array(fc.array(pick, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 30 }), (records) => {
        for (const texts of records) expect(printableCsvLine(texts)).toBe(general(texts))
      }),
      { numRuns: 500 },
    )
  })

  it('is csvLine over printableText for any fields', () => {
    const char = fc.oneof(
      fc.constantFrom(',', '"', '\r', '\n', '\t', '=', '+', '-', '@', '\x00', '\x1b', '\x7f', '\x85', '\u202e', '\u2066', '.', ' '),
      fc.integer({ min: 0, max: 9 }).map(String),
      fc.string({ unit: 'binary', maxLength: 1 }),
    )
    const field = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(''))
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 9 }), (texts) => {
        expect(printableCsvLine(texts)).toBe(general(texts))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('showAmount on a JSON number', () => {
  /** The general path: the amount's minor units as a BigInt, then formatMoney. */
  function viaBigInt(amount: number, currency: string, style: { group?: boolean; code?: boolean }): string {
    const minor = minorOf(amount, currency)
    return minor === undefined ? (style.code ? `${amount} ${currency}` : `${amount}`) : formatMoney(minor, currency, style)
  }

  it('writes what the BigInt path writes, for currencies of 0, 2 and 3 decimals', () => {
    const amounts = fc.oneof(
      fc.integer({ min: -1e15, max: 1e15 }).map((m) => m / 1000),
      fc.integer({ min: -1e15, max: 1e15 }).map((m) => m / 100),
      fc.integer({ min: -1e15, max: 1e15 }),
      fc.double({ noNaN: false }),
      fc.constantFrom(0, -0, 1e-7, 1e21, 0.1, 1.005, 12.5, -0.001, 999999999999999, 2 ** 53 + 2),
    )
    fc.assert(
      fc.property(
        amounts,
        fc.constantFrom('USD', 'JPY', 'BHD', 'KWD', 'EUR'),
        fc.boolean(),
        fc.boolean(),
        (amount, currency, group, code) => {
          expect(showAmount(amount, currency, { group, code })).toBe(viaBigInt(amount, currency, { group, code }))
        },
      ),
      { numRuns: 5000 },
    )
  })
})

describe('showMinor: an amount written from the minor units beside it', () => {
  const edges = [0, -0, 1, -1, 5, -5, 99, 100, -100, 101, 999, 1000, 10000, 123_456, 999_999_999_999_999, -999_999_999_999_999]

  it('writes what showAmount writes of the API number, on every currency and edge value', () => {
    for (const currency of CURRENCY_CODES)
      for (const m of edges)
        for (const style of [{}, { code: true }, { group: true, code: true }, { group: true }]) {
          const amount = minorToNumber(m, currency)
          expect(showMinor(m, amount, currency, style), `${m} ${currency}`).toBe(showAmount(amount, currency, style))
        }
  })

  it('writes what showAmount writes for any amount, and its number alone when the minor units are not that amount', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
          fc.integer({ min: -1e6, max: 1e6 }),
          fc.constantFrom(...edges),
        ),
        fc.constantFrom(...CURRENCY_CODES, 'XYZ'),
        fc.boolean(),
        fc.boolean(),
        fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 3 }), fc.constant(2 ** 53)),
        (m, currency, group, code, off) => {
          const style = { group, code }
          // The API's number of m (an unknown code has no exponent: two decimals, as showAmount reads it).
          const amount = currency === 'XYZ' ? m / 100 : minorToNumber(m, currency)
          expect(showMinor(m, amount, currency, style)).toBe(showAmount(amount, currency, style))
          // Minor units that are not the amount's (stale, foreign, unsafe): the number is what is written.
          expect(showMinor(m + off, amount, currency, style)).toBe(showAmount(amount, currency, style))
          expect(showMinor(undefined, amount, currency, style)).toBe(showAmount(amount, currency, style))
        },
      ),
      { numRuns: 5000 },
    )
  })
})
