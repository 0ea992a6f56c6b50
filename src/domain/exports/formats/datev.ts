/**
 * DATEV's Buchungsstapel (EXTF format 700, category 21, version 13; docs/exporting.md, "DATEV"): the
 * header line (adviser and client, fiscal year start, account length, period, Festschreibung), the
 * column names, then one booking a transaction: Umsatz without sign and S/H from the bank account's
 * side, Konto (the bank account's number) and Gegenkonto (the category's), Belegdatum DDMM, Belegfeld 1
 * the finctl id, Buchungstext the description. `;` between fields, decimal comma, CRLF; the caller
 * writes it in Windows-1252. A text longer than its field, or with a character Windows-1252 lacks, is
 * named with its line (`warn`), written cut or with `?`, never silently.
 */
import type { ExportTransaction } from '../schemas.js'
import { AppError } from '../../../kernel/errors.js'
import { decimal, minorOf } from './amounts.js'
import type { ChartMap } from './chart.js'
import { codePoint, inPage, oneLineText, outside } from './legacy-text.js'

export const DATEV_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
] as const

/** DATEV's limits of the text fields finctl writes. */
export const DATEV_LENGTHS = { Buchungstext: 60, 'Belegfeld 1': 36, Bezeichnung: 30 } as const

export interface DatevHeader {
  adviser: number
  client: number
  fiscalYearStart: string
  accountLength: number
  from: string
  to: string
  /** 1 only when every day of the period is on or before the lock date. */
  locked: boolean
  currency: string
  chart?: string
  /** When the file was made (its Erzeugt-am field). */
  now: Date
}

const ymd = (d: string) => d.replaceAll('-', '')

/** A DATEV text field: quoted, a quote doubled. */
const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`

export function datevHeaderLine(h: DatevHeader): string {
  const created = h.now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17)
  const skr = h.chart === 'skr03' ? '03' : h.chart === 'skr04' ? '04' : ''
  const name = `finctl ${ymd(h.from)}-${ymd(h.to)}`
  // Fields 1-31 of the header (format 700): those not named here stay empty.
  const fields = [
    quoted('EXTF'),
    '700',
    '21',
    quoted('Buchungsstapel'),
    '13',
    created,
    '',
    quoted('RE'),
    quoted('finctl'),
    quoted(''),
    String(h.adviser),
    String(h.client),
    ymd(h.fiscalYearStart),
    String(h.accountLength),
    ymd(h.from),
    ymd(h.to),
    quoted(name),
    quoted(''),
    '1',
    '0',
    h.locked ? '1' : '0',
    quoted(h.currency),
    '',
    quoted(''),
    '',
    '',
    quoted(skr),
    '',
    '',
    quoted(''),
    quoted(''),
  ]
  return `${fields.join(';')}\r\n${DATEV_COLUMNS.join(';')}\r\n`
}

/** 1 / rate to `places` decimals, half-even: DATEV's Kurs is the foreign currency's units for one of the base. */
export function inverseRate(rate: string, places = 6): string | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate)
  if (!m) return undefined
  const frac = m[2] ?? ''
  const r = BigInt(m[1] + frac)
  if (r === 0n) return undefined
  // 10^(frac + places) / r, rounded half-even.
  const num = 10n ** BigInt(frac.length + places)
  let q = num / r
  const rem = num % r
  if (rem * 2n > r || (rem * 2n === r && q % 2n === 1n)) q += 1n
  const text = q.toString().padStart(places + 1, '0')
  const int = text.slice(0, -places)
  if (int.length > 4 || q === 0n) return undefined
  return `${int},${text.slice(-places)}`
}

export type Warn = (message: string) => void

export class DatevWriter {
  /** The file's line the next booking is on (the header and the column names are lines 1 and 2). */
  private line = 3
  /** Transactions of 0 (accepted with --force): DATEV takes no booking of 0. */
  zeroLeftOut = 0

  constructor(
    private readonly chart: ChartMap,
    private readonly base: string,
    private readonly warn: Warn,
  ) {}

  /** A text field: one line, in Windows-1252, at most `max` characters; what is changed is named. */
  private text(value: string, field: keyof typeof DATEV_LENGTHS, t: ExportTransaction): string {
    let s = oneLineText(value)
    const missing = outside(s, 'windows-1252')
    if (missing.length) {
      this.warn(
        `line ${this.line} (transaction ${t.id}): ${field} has ${missing.map((c) => `"${c}" (${codePoint(c)})`).join(', ')}, not in Windows-1252: written as ?`,
      )
      s = inPage(s, 'windows-1252')
    }
    const max = DATEV_LENGTHS[field]
    if (s.length > max) {
      this.warn(
        `line ${this.line} (transaction ${t.id}): ${field} is ${s.length} characters, DATEV takes ${max}: cut to "${s.slice(0, max)}"`,
      )
      s = s.slice(0, max)
    }
    return quoted(s)
  }

  /** One booking; '' for a void transaction or one of 0. */
  transaction(t: ExportTransaction): string {
    if (t.status === 'void') return ''
    const baseMinor = minorOf(t.base_amount, this.base)
    const minor = minorOf(t.amount, t.currency_code)
    if (baseMinor === 0 && minor === 0) {
      this.zeroLeftOut++
      return ''
    }
    const bank = this.chart.bank(t.bank_account_id)
    const counter = this.chart.counter(t).account
    if (!bank || !counter) throw unmappedRow(t)
    const comma = (m: number, c: string) => decimal(Math.abs(m), c).replace('.', ',')
    const foreign = t.currency_code !== this.base && minor !== 0
    // Money in: the bank account (Konto) is debited, S; money out: H.
    const sign = baseMinor !== 0 ? baseMinor : minor
    const fields = foreign
      ? [
          comma(minor, t.currency_code),
          sign > 0 ? '"S"' : '"H"',
          quoted(t.currency_code),
          inverseRate(t.exchange_rate_exact) ?? '',
          comma(baseMinor, this.base),
          quoted(this.base),
        ]
      : [comma(baseMinor, this.base), sign > 0 ? '"S"' : '"H"', quoted(this.base), '', '', '']
    const date = t.transaction_date
    fields.push(
      bank.number,
      counter.number,
      '',
      `${date.slice(8, 10)}${date.slice(5, 7)}`,
      this.text(t.id, 'Belegfeld 1', t),
      '',
      '',
      this.text(t.description, 'Buchungstext', t),
    )
    this.line++
    return `${fields.join(';')}\r\n`
  }
}

/** A transaction whose accounts have no number although the period's groups had (a base amount of 0 hid its side). */
export function unmappedRow(t: ExportTransaction): AppError {
  const what =
    t.category ??
    (t.accounting_category
      ? `accounting category ${t.accounting_category}`
      : t.amount > 0
        ? 'uncategorized_income'
        : 'uncategorized_expense')
  return new AppError('validation_error', `transaction ${t.id} (${t.transaction_date}): ${what} has no account number in the accounts map`)
}
