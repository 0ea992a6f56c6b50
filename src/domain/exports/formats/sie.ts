/**
 * SIE 4 (type 4, "transaktioner"; docs/exporting.md, "SIE 4"): the file's identity (#FLAGGA 0,
 * #PROGRAM, #FORMAT PC8, #GEN, #SIETYP 4, #FNAMN, #RAR, #VALUTA), #KONTO for every account used, the
 * balance accounts' #IB/#UB (bank accounts, the opening balances' account, and by the chart's classes) and the result accounts' #RES, then one #VER
 * a transaction whose two #TRANS sum to zero. The caller writes it in CP437 (PC8) with CRLF. With
 * `checksum`, #KSUMMA: CRC-32 over the CP437 bytes of each record's label and fields after the
 * opening #KSUMMA (no quotes, field spaces, object-list braces or line ends), as SIE 4B specifies it.
 */
import { crc32 } from 'node:zlib'
import type { ExportTransaction } from '../schemas.js'
import { decimal, minorOf } from './amounts.js'
import type { ChartBalances } from './chart-balances.js'
import type { ChartMap } from './chart.js'
import { unmappedRow, type Warn } from './datev.js'
import { codePoint, encode, inPage, oneLineText, outside } from './legacy-text.js'

export interface SieHeader {
  company: string
  organizationNumber?: string
  version: string
  fiscalYear: { start: string; end: string }
  from: string
  to: string
  currency: string
  now: Date
  checksum: boolean
}

const ymd = (d: string) => d.replaceAll('-', '')

/** A field as SIE writes it: a text in quotes (\" and \\ escaped); numbers, dates and {} as they are. */
type Field = { text: string } | string

export class SieWriter {
  private crc = 0
  private line = 1
  private voucher = 0

  constructor(
    private readonly chart: ChartMap,
    private readonly base: string,
    private readonly checksum: boolean,
    private readonly warn: Warn,
  ) {}

  /** One record: its line, and its part of the checksum. */
  private record(label: string, fields: Field[], where?: string): string {
    const parts = fields.map((f) => (typeof f === 'string' ? f : this.clean(f.text, where)))
    // An empty object list ({}) adds nothing to the checksum: its braces delimit, as quotes do.
    if (this.checksum) this.crc = crc32(encode(label + parts.map((p) => (p === '{}' ? '' : p)).join(''), 'cp437'), this.crc)
    this.line++
    const shown = fields.map((f, i) => (typeof f === 'string' ? f : `"${parts[i].replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`))
    return `${[label, ...shown].join(' ')}\r\n`
  }

  /** A text as one line of CP437; a character CP437 lacks is named and written as ?. */
  private clean(text: string, where?: string): string {
    const s = oneLineText(text)
    const missing = outside(s, 'cp437')
    if (!missing.length) return s
    this.warn(
      `line ${this.line}${where ? ` (${where})` : ''}: ${missing.map((c) => `"${c}" (${codePoint(c)})`).join(', ')} not in CP437: written as ?`,
    )
    return inPage(s, 'cp437')
  }

  private amount(minor: bigint): string {
    return decimal(Number(minor), this.base)
  }

  header(h: SieHeader, b: ChartBalances): string {
    // #FLAGGA and the opening #KSUMMA come before what the checksum covers.
    let out = '#FLAGGA 0\r\n'
    this.line++
    if (this.checksum) {
      out += '#KSUMMA\r\n'
      this.line++
    }
    out += this.record('#PROGRAM', [{ text: 'finctl' }, { text: h.version }])
    out += this.record('#FORMAT', ['PC8'])
    out += this.record('#GEN', [ymd(h.now.toISOString().slice(0, 10))])
    out += this.record('#SIETYP', ['4'])
    if (h.organizationNumber) out += this.record('#ORGNR', [h.organizationNumber])
    out += this.record('#FNAMN', [{ text: h.company }])
    out += this.record('#RAR', ['0', ymd(h.fiscalYear.start), ymd(h.fiscalYear.end)])
    if (h.to < h.fiscalYear.end) out += this.record('#OMFATTN', [ymd(h.to)])
    out += this.record('#VALUTA', [h.currency])
    for (const a of b.accounts) out += this.record('#KONTO', [a.account.number, { text: a.account.name }], `account ${a.account.number}`)
    for (const a of b.accounts) {
      const n = a.account.number
      if (a.balance) {
        out += this.record('#IB', ['0', n, this.amount(a.opening)])
        out += this.record('#UB', ['0', n, this.amount(a.opening + a.movement)])
      } else out += this.record('#RES', ['0', n, this.amount(a.opening + a.movement)])
    }
    return out
  }

  private ver(date: string, text: string, registered: string, lines: Array<[string, bigint, string?]>, where: string): string {
    this.voucher++
    let out = this.record('#VER', ['A', String(this.voucher), ymd(date), { text }, ymd(registered)], where)
    out += '{\r\n'
    this.line++
    for (const [number, minor, note] of lines)
      out += `   ${this.record('#TRANS', [number, '{}', this.amount(minor), ymd(date), ...(note ? [{ text: note }] : [])], where)}`
    out += '}\r\n'
    this.line++
    return out
  }

  /** An opening balance brought in during the period: the bank account against the opening-balances account. */
  opened(date: string, bankId: string, base: bigint): string {
    const bank = this.chart.bank(bankId)!
    return this.ver(
      date,
      `Opening balance ${bank.name}`,
      date,
      [
        [bank.number, base],
        [this.chart.opening!.number, -base],
      ],
      `opening balance of ${bank.name}`,
    )
  }

  /** One #VER; '' for a void transaction. */
  transaction(t: ExportTransaction): string {
    if (t.status === 'void') return ''
    const bank = this.chart.bank(t.bank_account_id)
    const counter = this.chart.counter(t).account
    if (!bank || !counter) throw unmappedRow(t)
    const baseMinor = BigInt(minorOf(t.base_amount, this.base))
    // SIE's #TRANS has no currency: the amount in its own currency and the rate go into the bank line's text.
    const note =
      t.currency_code === this.base
        ? undefined
        : `${decimal(minorOf(t.amount, t.currency_code), t.currency_code)} ${t.currency_code} @ ${t.exchange_rate_exact}`
    const text = t.merchant_name ? `${t.merchant_name}: ${t.description}` : t.description
    return this.ver(
      t.transaction_date,
      text,
      t.created_at.slice(0, 10),
      [
        [bank.number, baseMinor, note],
        [counter.number, -baseMinor],
      ],
      `transaction ${t.id}`,
    )
  }

  end(): string {
    return this.checksum ? `#KSUMMA ${this.crc >>> 0}\r\n` : ''
  }
}
