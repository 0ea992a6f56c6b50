/**
 * The one CSV writer of finctl, for every CSV it writes (`--output csv`, `tx import --rejects`):
 * fields quoted per RFC 4180, lines ending in CRLF as RFC 4180 has them (spreadsheets and finctl's
 * own import read either), and a guard against spreadsheet formulas: a field that starts with
 * = + - @, a tab or a carriage return is written with a leading ' so it stays text, unless it is a
 * number as finctl or a bank writes it (-12.50, -12.50 USD, -1.234,56, +5). Quoting stays by hand
 * (three lines): csv-stringify wrote the same bytes several times slower (docs/performance.md).
 */

/** A signed number with grouping and decimal marks, and maybe its currency: a spreadsheet runs none. */
const NUMBER = /^[+-]?\d[\d.,' \u00a0]*( [A-Z]{3})?$/

export const CSV_LINE_END = '\r\n'

/** One field: guarded, then quoted when it holds the delimiter, a quote or a line break. */
export function csvField(s: string, delimiter = ','): string {
  // By character code, not a regex each: a million-row `tx list --all --output csv` writes ten million fields.
  const c = s.charCodeAt(0)
  const risky = c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d
  const safe = risky && !NUMBER.test(s) ? `'${s}` : s
  return (delimiter === ',' ? QUOTED.test(safe) : safe.includes('"') || safe.includes(delimiter) || /[\r\n]/.test(safe))
    ? `"${safe.replace(/"/g, '""')}"`
    : safe
}

/** What makes a field with the comma delimiter quoted. */
const QUOTED = /[",\r\n]/

/** One record, with its line end. */
export function csvLine(fields: readonly string[], delimiter = ','): string {
  return `${fields.map((f) => csvField(f, delimiter)).join(delimiter)}${CSV_LINE_END}`
}
