/**
 * A CSV written from known transactions in any layout the import supports reads back
 * to the same rows, count and sum: with a header or without, any delimiter, a decimal point or
 * comma with or without thousands marks, signed amounts, an unsigned amount beside a sign column or
 * debit and credit columns, and any date layout. The flags passed are the ones a user is told to
 * give (a date layout no row shows, the columns of a header-less file that its values cannot tell).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RowMapper } from '../../src/import/map-rows.js'
import { planImportBytes, type CsvMapping } from '../../src/import/plan.js'
import { readRecordsBytes } from '../../src/import/read-rows.js'

interface Tx {
  date: string
  minor: number
  text: string
}

const WORDS = [
  'Coffee',
  'Rent',
  'Salary',
  'Books',
  'Train, Lunch',
  'Café Müller',
  'Office "East"',
  'Phone',
  'Gym',
  'Refund',
  'Parking',
  'Insurance',
]
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** Date layouts a file writes, each with whether detection may be left to the import or a flag is given. */
const DATES: Array<{ flag?: string; write: (y: number, m: number, d: number) => string }> = [
  { write: (y, m, d) => `${y}-${pad(m)}-${pad(d)}` },
  { write: (y, m, d) => `${pad(d)}.${pad(m)}.${y}` },
  { write: (y, m, d) => `${pad(m)}/${pad(d)}/${y}` },
  { write: (y, m, d) => `${y}${pad(m)}${pad(d)}` },
  { write: (y, m, d) => `${pad(d)}-${MONTHS[m - 1]}-${y}` },
  { flag: 'DD/YYYY/MM', write: (y, m, d) => `${pad(d)}/${y}/${pad(m)}` },
  {
    flag: '%e %B %Y',
    write: (y, m, d) =>
      `${d} ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][m - 1]} ${y}`,
  },
]

type Signs = 'signed' | 'trailing-minus' | 'parentheses' | 'indicator' | 'debit-credit'
const MARKS: Array<[string, string, string]> = [
  ['D/C', 'D', 'C'],
  ['Af Bij', 'Af', 'Bij'],
  ['Soll/Haben', 'S', 'H'],
  ['Debit/Credit', 'DEBIT', 'CREDIT'],
]

const layoutArb = fc.record({
  delimiter: fc.constantFrom(',', ';', '\t', '|'),
  header: fc.boolean(),
  decimal: fc.constantFrom('.', ','),
  thousands: fc.boolean(),
  signs: fc.constantFrom<Signs>('signed', 'trailing-minus', 'parentheses', 'indicator', 'debit-credit'),
  marks: fc.constantFrom(...MARKS),
  date: fc.integer({ min: 0, max: DATES.length - 1 }),
  crlf: fc.boolean(),
  quoteAll: fc.boolean(),
  trailingDelimiter: fc.boolean(),
  preamble: fc.boolean(),
})

type Layout = typeof layoutArb extends fc.Arbitrary<infer T> ? T : never

const txArb = fc.record({
  year: fc.integer({ min: 2000, max: 2025 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  minor: fc.integer({ min: -5_000_000, max: 5_000_000 }).filter((n) => n !== 0),
  word: fc.constantFrom(...WORDS),
  n: fc.integer({ min: 1, max: 999 }),
})

/** An amount's text: its magnitude with the decimal and thousands marks, and the sign the layout writes. */
function amountText(minor: number, l: Layout, unsigned: boolean): string {
  const abs = Math.abs(minor)
  let whole = String(Math.floor(abs / 100))
  if (l.thousands) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, l.decimal === ',' ? '.' : ',')
  const text = `${whole}${l.decimal}${pad(abs % 100)}`
  if (unsigned || minor > 0) return text
  return l.signs === 'trailing-minus' ? `${text}-` : l.signs === 'parentheses' ? `(${text})` : `-${text}`
}

/** A field as CSV writes it: quoted when it holds the delimiter, a quote or a mark that could read as one (or always). */
function field(text: string, delimiter: string, always = false): string {
  return always || text.includes(delimiter) || text.includes('"') || /[,;|]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function writeFile(txs: Tx[], l: Layout, dates: string[]): { csv: string; o: CsvMapping } {
  const [markHeader, debit, credit] = l.marks
  const columns =
    l.signs === 'debit-credit'
      ? ['Date', 'Description', 'Debit', 'Credit']
      : l.signs === 'indicator'
        ? ['Date', 'Description', 'Amount', markHeader]
        : ['Date', 'Description', 'Amount']
  const end = l.trailingDelimiter ? l.delimiter : ''
  const row = (cells: string[]) => cells.map((c) => field(c, l.delimiter, l.quoteAll)).join(l.delimiter) + end
  // Lines before the header (an account, a period), as many banks write them.
  const preamble = l.header && l.preamble ? [row(['Account', 'DE12 3456 7890']), row(['Period', 'all']), ''] : []
  const lines = [...preamble, ...(l.header ? [row(columns)] : [])]
  txs.forEach((t, i) => {
    const cells = [dates[i], t.text]
    if (l.signs === 'debit-credit')
      cells.push(t.minor < 0 ? amountText(t.minor, l, true) : '', t.minor > 0 ? amountText(t.minor, l, true) : '')
    else if (l.signs === 'indicator') cells.push(amountText(t.minor, l, true), t.minor < 0 ? debit : credit)
    else cells.push(amountText(t.minor, l, false))
    lines.push(row(cells))
  })
  const o: CsvMapping = { layouts: false }
  const format = DATES[l.date]
  if (format.flag) o.dateFormat = format.flag
  if (l.decimal === ',') o.decimalComma = true
  // What a file without names cannot show by its values: which columns are the debit, credit and sign.
  if (!l.header && l.signs === 'debit-credit')
    o.map = [
      ['debit', '3'],
      ['credit', '4'],
    ]
  if (!l.header && l.signs === 'indicator') o.map = [['indicator', '4']]
  const eol = l.crlf ? '\r\n' : '\n'
  return { csv: `${lines.join(eol)}${eol}`, o }
}

describe('#59 item 12: a CSV written in any supported layout reads back to its rows', () => {
  it('count, sum, every date and amount', async () => {
    await fc.assert(
      fc.asyncProperty(layoutArb, fc.array(txArb, { minLength: 2, maxLength: 25 }), async (l, raw) => {
        // A day over 12 and both signs, so that the file shows its date order and its sign column's two values.
        raw[0].day = 25
        if (raw.every((t) => t.minor < 0)) raw[1].minor = Math.abs(raw[1].minor)
        if (raw.every((t) => t.minor > 0)) raw[1].minor = -raw[1].minor
        const txs: Tx[] = raw.map((t) => ({
          date: `${t.year}-${pad(t.month)}-${pad(t.day)}`,
          minor: t.minor,
          text: `${t.word} ${t.n}`,
        }))
        const dates = raw.map((t) => DATES[l.date].write(t.year, t.month, t.day))
        const { csv, o } = writeFile(txs, l, dates)
        const bytes = new TextEncoder().encode(csv)
        const plan = await planImportBytes(bytes, o)
        const mapper = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
        const got: Tx[] = []
        for await (const rec of readRecordsBytes(bytes, plan.layout)) {
          const r = mapper.map(rec)
          if (!r) continue
          if (!r.ok) throw new Error(`line ${r.line}: ${r.reason}\n${csv}`)
          got.push({ date: r.request.transaction_date, minor: r.minor, text: r.request.description })
        }
        expect(got, `${plan.notes.join('\n')}\n${csv}`).toEqual(txs)
        expect(got.reduce((s, t) => s + t.minor, 0)).toBe(txs.reduce((s, t) => s + t.minor, 0))
      }),
      { numRuns: 300 },
    )
  }, 240_000)
})
