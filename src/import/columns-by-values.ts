/**
 * Columns found by their values where no header names them: a header-less file (easybank, ASN),
 * or a header in words the mapping does not know. The currency (a column of ISO 4217 codes) and the
 * text columns a description is taken from, in the order they are tried; the money columns are
 * money-readings.ts's.
 */
import { isCurrency, withdrawnIn } from '../kernel/currencies.js'
import { looksLikeAmount } from './amount.js'
import { isDateCell } from './column-evidence.js'
import { cell } from './row-text.js'

/** Share of a column's rows that must hold its kind of value. */
const MOST = 0.9

function widthOf(rows: string[][]): number {
  let w = 0
  for (const r of rows) if (r.length > w) w = r.length
  return w
}

/** Columns not taken whose cells are filled on most rows and each of those of one kind. */
function columnsOf(rows: string[][], taken: Set<number>, is: (text: string) => boolean): number[] {
  const found: number[] = []
  for (let i = 0; i < widthOf(rows); i++) {
    if (taken.has(i)) continue
    let filled = 0
    let kind = 0
    for (const r of rows) {
      const v = cell(r, i)
      if (!v) continue
      filled++
      if (is(v)) kind++
    }
    if (filled > 0 && filled >= rows.length * MOST && kind >= filled * MOST) found.push(i)
  }
  return found
}

/**
 * The currency column by its values (codes of today's ISO 4217 currencies on most rows: a withdrawn
 * one such as Alfa-Bank's "RUR" under a header of no field is no evidence): of several, the one
 * nearest the amount.
 */
export function currencyColumnByValues(rows: string[][], taken: Set<number>, amount: number | undefined): number | undefined {
  const active = (v: string) => isCurrency(v) && withdrawnIn(v) === undefined
  const columns = columnsOf(rows, taken, (v) => /^[A-Z]{3}$/.test(v) && active(v))
  if (columns.length <= 1 || amount === undefined) return columns[0]
  return columns.reduce((best, i) => (Math.abs(i - amount) < Math.abs(best - amount) ? i : best))
}

/** An account number or code rather than words: an IBAN, digits, or one word of capitals and digits. */
const CODE = /^(?:[A-Z]{2}\d{2}[A-Z0-9 ]{10,34}|[\d\s./-]+|[A-Z0-9_/-]{1,12})$/
const LETTERS = /\p{L}.*\p{L}/u

/**
 * Text columns not taken, best first for a description: the ones whose cells are words (not codes,
 * dates or amounts) on the most rows; those that vary from row to row before those that do not (a
 * column of two values, Ja/Nej, says which kind a row is rather than what it was).
 */
export function textColumnsByValues(rows: string[][], taken: Set<number>): { varying: number[]; constant: number[] } {
  const scored: Array<{ i: number; words: number; varies: boolean }> = []
  for (let i = 0; i < widthOf(rows); i++) {
    if (taken.has(i)) continue
    let words = 0
    let filled = 0
    const values = new Set<string>()
    for (const r of rows) {
      const v = cell(r, i)
      if (!v) continue
      filled++
      values.add(v)
      if (LETTERS.test(v) && !CODE.test(v) && !isDateCell(v) && !looksLikeAmount(v)) words++
    }
    if (words > 0 && words * 2 >= filled) scored.push({ i, words, varies: values.size > 2 || values.size === rows.length })
  }
  const order = scored.sort((a, b) => b.words - a.words || a.i - b.i)
  return { varying: order.filter((s) => s.varies).map((s) => s.i), constant: order.filter((s) => !s.varies).map((s) => s.i) }
}
