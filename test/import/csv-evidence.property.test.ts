/**
 * Bank CSVs written from known transactions in every combination the import claims to read, read
 * with no flag at all: header or none (names in several languages), preamble and footer lines, a
 * signed amount, money out and money in columns, or an amount beside a debit/credit column, a
 * running balance or none, rows oldest or newest first, any delimiter, a decimal point or comma,
 * date layouts with numbers or month names, quoted or not, columns in any order. Each file either
 * reads to exactly its rows (count, every amount, the sum) or is refused: never another number.
 * Where the file holds the evidence (names the mapping knows, a running balance, signs written),
 * it must read. fast-check prints the seed and the path of a failure (`{ seed, path }` reruns it).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { balanceRefusal, checkBalance } from '../../src/import/balance-check.js'
import { RowMapper } from '../../src/import/map-rows.js'
import { ImportError, planImportBytes } from '../../src/import/plan.js'
import { readRecordChunksBytes, readRecordsBytes } from '../../src/import/read-rows.js'

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

type Field = 'date' | 'text' | 'amount' | 'out' | 'in' | 'mark' | 'balance'

/** A language's header names and its debit/credit marks. */
const LANGUAGES: Array<{ names: Record<Field, string>; marks: [string, string] }> = [
  {
    names: { date: 'Date', text: 'Description', amount: 'Amount', out: 'Debit', in: 'Credit', mark: 'D/C', balance: 'Balance' },
    marks: ['D', 'C'],
  },
  {
    names: { date: 'Buchungstag', text: 'Verwendungszweck', amount: 'Betrag', out: 'Soll', in: 'Haben', mark: 'S/H', balance: 'Saldo' },
    marks: ['S', 'H'],
  },
  {
    names: { date: 'Date opération', text: 'Libellé', amount: 'Montant', out: 'Débit', in: 'Crédit', mark: 'Sens', balance: 'Solde' },
    marks: ['Débit', 'Crédit'],
  },
  {
    names: { date: 'Datum', text: 'Omschrijving', amount: 'Bedrag', out: 'Af', in: 'Bij', mark: 'Af Bij', balance: 'Saldo na mutatie' },
    marks: ['Af', 'Bij'],
  },
  {
    names: { date: '交易日期', text: '摘要', amount: '交易金额', out: '支出', in: '存入', mark: '借贷标志', balance: '余额' },
    marks: ['借', '贷'],
  },
  {
    names: {
      date: 'Дата операции',
      text: 'Описание',
      amount: 'Сумма',
      out: 'Расход',
      in: 'Приход',
      mark: 'Дебет/Кредит',
      balance: 'Остаток',
    },
    marks: ['Дебет', 'Кредит'],
  },
]

const MONTHS: Record<string, string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  de: ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sep.', 'Okt.', 'Nov.', 'Dez.'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  it: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
}

/** Date layouts detection reads without a flag. */
const DATES: Array<(y: number, m: number, d: number) => string> = [
  (y, m, d) => `${y}-${pad(m)}-${pad(d)}`,
  (y, m, d) => `${pad(d)}.${pad(m)}.${y}`,
  (y, m, d) => `${pad(m)}/${pad(d)}/${y}`,
  (y, m, d) => `${pad(d)}/${pad(m)}/${y}`,
  (y, m, d) => `${y}${pad(m)}${pad(d)}`,
  (y, m, d) => `${y}/${pad(m)}/${pad(d)} 10:${pad(d)}:00`,
  (y, m, d) => `${pad(d)}-${MONTHS.en[m - 1]}-${y}`,
  (y, m, d) => `${d} ${MONTHS.de[m - 1]} ${y}`,
  (y, m, d) => `${d} ${MONTHS.fr[m - 1]} ${y}`,
  (y, m, d) => `${pad(d)} ${MONTHS.it[m - 1]} ${y}. 09:15:02`,
]

const WORDS = ['Coffee shop', 'Rent office', 'Salary Acme', 'Book store', 'Train, Lunch', 'Café Müller', 'Phone bill', 'Refund Zeta']

const layoutArb = fc.record({
  delimiter: fc.constantFrom(',', ';', '\t', '|'),
  header: fc.boolean(),
  language: fc.integer({ min: 0, max: LANGUAGES.length - 1 }),
  preamble: fc.boolean(),
  footer: fc.boolean(),
  money: fc.constantFrom('signed', 'out-in', 'out-minus-in', 'indicator'),
  balance: fc.constantFrom('none', 'after', 'none', 'after'),
  newestFirst: fc.boolean(),
  decimal: fc.constantFrom('.', ','),
  thousands: fc.boolean(),
  date: fc.integer({ min: 0, max: DATES.length - 1 }),
  quoteAll: fc.boolean(),
  crlf: fc.boolean(),
  order: fc.array(fc.nat(), { minLength: 7, maxLength: 7 }),
})
type Layout = typeof layoutArb extends fc.Arbitrary<infer T> ? T : never

const txArb = fc.record({
  day: fc.integer({ min: 1, max: 28 }),
  minor: fc.integer({ min: -900_000, max: 900_000 }).filter((n) => n !== 0),
  word: fc.constantFrom(...WORDS),
  n: fc.integer({ min: 1, max: 99 }),
})

function money(minor: number, l: Layout, unsigned = false): string {
  const abs = Math.abs(minor)
  let whole = String(Math.floor(abs / 100))
  if (l.thousands) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, l.decimal === ',' ? '.' : ',')
  return `${minor < 0 && !unsigned ? '-' : ''}${whole}${l.decimal}${pad(abs % 100)}`
}

function cellText(text: string, l: Layout): string {
  const needs = l.quoteAll || text.includes(l.delimiter) || text.includes('"') || /[,;|]/.test(text)
  return needs ? `"${text.replaceAll('"', '""')}"` : text
}

/** The file, and its rows in file order (what a right reading gives). */
function writeFile(l: Layout, raw: Array<{ day: number; minor: number; word: string; n: number }>) {
  const lang = LANGUAGES[l.language]
  // Chronological: days rising through two months, the first with a day over 12 so the date order shows.
  const chrono = raw.map((t, i) => ({ ...t, month: 3 + Math.floor(i / 14), day: i === 0 ? 13 : Math.min(28, (i % 14) * 2 + 1) }))
  chrono.sort((a, b) => a.month - b.month || a.day - b.day)
  let balance = 1_000_000
  const rows = chrono.map((t) => {
    balance += t.minor
    return { ...t, balance, text: `${t.word} ${t.n}`, date: `2026-${pad(t.month)}-${pad(t.day)}` }
  })
  if (l.newestFirst) rows.reverse()
  const fields: Field[] = ['date', 'text']
  if (l.money === 'signed') fields.push('amount')
  else if (l.money === 'indicator') fields.push('amount', 'mark')
  else fields.push('out', 'in')
  if (l.balance === 'after') fields.push('balance')
  // Columns in any order, the date first or not.
  const order = fields
    .map((f, i) => ({ f, k: l.order[i] ?? i }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.f)
  const line = (cells: string[]) => cells.map((c) => cellText(c, l)).join(l.delimiter)
  const lines: string[] = []
  if (l.header && l.preamble) lines.push(line(['Account', 'DE12 3456 7890 1234']), line(['Period', '2026-03 to 2026-04']), '')
  if (l.header) lines.push(line(order.map((f) => lang.names[f])))
  for (const r of rows) {
    const value: Record<Field, string> = {
      date: DATES[l.date](2026, r.month, r.day),
      text: r.text,
      amount: money(r.minor, l, l.money === 'indicator'),
      out: r.minor < 0 ? money(r.minor, l, l.money === 'out-in') : '',
      in: r.minor > 0 ? money(r.minor, l) : '',
      mark: r.minor < 0 ? lang.marks[0] : lang.marks[1],
      balance: money(r.balance, l),
    }
    lines.push(line(order.map((f) => value[f])))
  }
  if (l.footer) lines.push(line(['Total', String(rows.length)]))
  const eol = l.crlf ? '\r\n' : '\n'
  return { csv: `${lines.join(eol)}${eol}`, rows }
}

/** Whether the file holds what decides its reading: names the mapping knows, a running balance, signs written. */
function decidable(l: Layout): boolean {
  if (l.header) return true
  if (l.balance === 'after') return true
  return l.money === 'signed' || l.money === 'out-minus-in'
}

describe('a bank CSV in any layout the import claims is read exactly, or refused', () => {
  it('never another count or sum; read whenever the file holds the evidence', async () => {
    let read = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(layoutArb, fc.array(txArb, { minLength: 4, maxLength: 24 }), async (l, raw) => {
        // Both signs, so that the file shows its money out and money in.
        if (raw.every((t) => t.minor < 0)) raw[1].minor = Math.abs(raw[1].minor)
        if (raw.every((t) => t.minor > 0)) raw[1].minor = -raw[1].minor
        const { csv, rows } = writeFile(l, raw)
        const bytes = new TextEncoder().encode(csv)
        let plan: Awaited<ReturnType<typeof planImportBytes>>
        try {
          plan = await planImportBytes(bytes)
        } catch (e) {
          if (!(e instanceof ImportError)) throw e
          refused++
          expect(decidable(l), `refused, though the file holds its evidence: ${e.message}\n${csv}`).toBe(false)
          return
        }
        const mapper = new RowMapper(plan, { accountId: 'acct', currency: 'EUR' })
        const got: Array<{ date: string; minor: number }> = []
        const rejected: string[] = []
        for await (const rec of readRecordsBytes(bytes, plan.layout)) {
          const r = mapper.map(rec)
          if (r?.ok) got.push({ date: r.request.transaction_date, minor: r.minor })
          else if (r) rejected.push(`line ${r.line}: ${r.reason}`)
        }
        const balance = balanceRefusal(
          plan,
          await checkBalance(readRecordChunksBytes(bytes, plan.layout), plan, { accountId: 'a', currency: 'EUR' }),
        )
        // Rejected rows or a broken balance exit other than 0; the property is about a silent wrong number.
        if (rejected.length || balance) {
          refused++
          expect(decidable(l), `not read whole: ${[...rejected, balance].join('; ')}\n${plan.notes.join('\n')}\n${csv}`).toBe(false)
          return
        }
        read++
        const why = `${plan.notes.join('\n')}\n${csv}`
        expect(got, why).toEqual(rows.map((r) => ({ date: r.date, minor: r.minor })))
        expect(
          got.reduce((s, r) => s + r.minor, 0),
          why,
        ).toBe(rows.reduce((s, r) => s + r.minor, 0))
      }),
      { numRuns: Number(process.env.FINCTL_PROPERTY_RUNS ?? 400) },
    )
    // The property holds by refusing too: most files must still be read.
    expect(read, `${read} read, ${refused} refused`).toBeGreaterThan(refused)
  }, 480_000)
})
