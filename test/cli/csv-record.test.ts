/**
 * The one-test CSV record (src/cli/csv-record.ts) and the amount read without a BigInt
 * (showAmount on a JSON number, src/cli/money.ts) write the same text as the general paths.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { printableCsvLine } from '../../src/cli/csv-record.js'
import { formatMoney, minorOf, showAmount } from '../../src/cli/money.js'
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
