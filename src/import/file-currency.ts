/**
 * The currency a file says its amounts are in: its amount column's header ("Betrag in EUR",
 * "Amount (USD)"), a preamble line ("Währung: EUR", "Saldo: -76.77 EUR"), or a currency column's
 * values row by row. The import compares it with the account's before anything is written
 * (`currencyRefusal`): a file in euros is never taken for dollars because the account is in dollars.
 */
import { isCurrency } from '../kernel/currencies.js'
import type { ColumnMap } from './mapping.js'
import { normalizeHeader } from './mapping.js'

export interface StatedCurrency {
  code: string
  /** Where the file says so, for the plan: `the header "Betrag in EUR"`, `line 3 ("Währung: EUR")`. */
  from: string
}

const SYMBOLS: Record<string, string> = { '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₽': 'RUB', '₴': 'UAH', zł: 'PLN', Kč: 'CZK', '₹': 'INR' }

/** The ISO 4217 codes (or unambiguous symbols) a text names as words of their own. */
function codesIn(text: string): string[] {
  const found = new Set<string>()
  for (const m of text.matchAll(/(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])/g)) if (isCurrency(m[1])) found.add(m[1])
  for (const [symbol, code] of Object.entries(SYMBOLS)) if (text.includes(symbol)) found.add(code)
  return [...found]
}

/** The currency the headers of the amount columns name, when they name one and only one. */
export function headerCurrency(header: string[], map: ColumnMap): StatedCurrency | undefined {
  const named = new Map<string, string>()
  for (const i of [map.amount, map.debit, map.credit]) {
    if (i === undefined || i < 0) continue
    for (const code of codesIn(header[i] ?? '')) named.set(code, header[i].trim())
  }
  if (named.size !== 1) return undefined
  const [[code, h]] = named
  return { code, from: `the header "${h}"` }
}

/** Words that label a currency in a preamble line ("Währung:", "Currency", "Devise", "Valuta"). */
const LABELS = new Set(['currency', 'waehrung', 'wahrung', 'devise', 'moneda', 'valuta', 'valiuta', 'waluta', 'mena', 'munt', 'valuuta'])

/**
 * The currency the lines before the header name: a line labelled so, or a line with an amount and
 * a code (a balance, "Saldo: -76.77 EUR"); undefined when none does or they name several.
 */
export function preambleCurrency(lines: Array<{ line: number; fields: string[] }>): StatedCurrency | undefined {
  const named = new Map<string, { line: number; text: string }>()
  for (const { line, fields } of lines) {
    const text = fields.filter((f) => f.trim()).join(' ')
    const labelled = fields.some((f) => LABELS.has(normalizeHeader(f)))
    const withAmount = /\d[.,]\d{2}\b/.test(text)
    if (!labelled && !withAmount) continue
    for (const code of codesIn(text)) if (!named.has(code)) named.set(code, { line, text })
  }
  if (named.size !== 1) return undefined
  const [[code, at]] = named
  return { code, from: `line ${at.line} (${JSON.stringify(at.text.slice(0, 60))})` }
}

/** How many rows of the plan each code of a currency column holds, most first. */
export function currencyCounts(counts: Map<string, number>): Array<{ code: string; rows: number }> {
  return [...counts].map(([code, rows]) => ({ code, rows })).sort((a, b) => b.rows - a.rows || a.code.localeCompare(b.code))
}

/** What the plan read of the file's currency. */
export interface FileCurrency {
  stated?: StatedCurrency
  /** A currency column's codes over the rows the plan read (all of them unless it settled early). */
  column?: { name: string; counts: Array<{ code: string; rows: number }> }
}

/**
 * Why the file cannot go into an account in `account.currency` as it is, or undefined. A whole file
 * in another currency (its header or preamble says so, or its currency column holds no row in the
 * account's) is refused, unless `--set currency_code` names that currency: then its rows keep it,
 * each converted at a rate, as a row in another currency always is.
 */
export function currencyRefusal(file: FileCurrency, account: { name: string; currency: string }, setCurrency?: string): string | undefined {
  const { stated, column } = file
  const others = column?.counts.filter((c) => c.code !== account.currency) ?? []
  const wholeColumn = column && others.length > 0 && others.length === column.counts.length ? others : undefined
  const fileCodes = stated ? [stated.code] : (wholeColumn?.map((c) => c.code) ?? [])
  if (fileCodes.length === 0 || fileCodes.every((c) => c === account.currency)) return undefined
  if (setCurrency !== undefined && fileCodes.length === 1 && setCurrency === fileCodes[0]) return undefined
  const where = stated ? stated.from : `its column "${column!.name}"`
  const is = fileCodes.length === 1 ? `in ${fileCodes[0]}` : `in ${fileCodes.join(' and ')}, every row`
  if (setCurrency !== undefined)
    return `the file is ${is} (${where}), not ${setCurrency} as --set currency_code says: give --set currency_code=${fileCodes[0]}, or check the file`
  return `the file is ${is} (${where}) but bank account "${account.name}" is in ${account.currency}: import it into an account in ${fileCodes[0]} (--account), or give --set currency_code=${fileCodes[0]} to keep its rows in ${fileCodes[0]} on this account (each converted at the company's rate of its date, or --set exchange_rate=RATE); nothing was imported`
}
