/**
 * The money a file's columns hold, as evidence for reading it (money-readings.ts): which columns
 * are amounts, filled on every row or on some rows only, written with signs or without, and what
 * a reading of them (one amount column, a money-out and a money-in column, an amount with a
 * debit/credit column) gives each row. Amounts in minor units of four decimals, whatever the
 * currency: they are compared with each other, never stored.
 */
import { amountSign, detectDecimalMark, looksLikeAmount, parseLocaleAmount, type DecimalMark } from './amount.js'
import { isDateCell } from './column-evidence.js'
import { columnAmount, type Sign } from './debit-credit.js'
import { markSide } from './marks.js'
import { cell } from './row-text.js'

/** Decimals every amount of the evidence is read with. */
const UNITS = 4
/** Share of a column's filled cells that must be amounts for it to be a money column. */
const MOST = 0.9
/** Distinct values a debit/credit column holds at most. */
const MAX_MARKS = 8

/** A money column's values over the rows of the evidence. */
export interface MoneyColumn {
  column: number
  /** Per row: the amount (minor units of UNITS decimals), undefined where the cell is empty or no amount. */
  values: Array<number | undefined>
  /** Rows with an amount, and those with one other than 0. */
  filled: number
  nonzero: number
  /** Amounts written as amounts (decimals or a sign), not bare numbers (a reference, a count). */
  amountLike: number
  /** The sign most of its values are written with (debit-credit.ts): a column of money out may be written with a minus. */
  usual: Sign
  negative: number
  positive: number
}

/** A balance's text: "1,234.56 Cr", "-76.77", "DR 12.00"; a trailing or leading CR/DR is its sign (DR overdrawn). */
const BALANCE_MARK = /^\s*(?:(cr|dr)\.?\s+)?(.*?)(?:\s*\b(cr|dr)\.?)?\s*$/i

/** A balance cell in minor units of `exponent` decimals, undefined when it holds none. */
export function balanceValue(text: string, decimal: DecimalMark, exponent: number): number | undefined {
  if (!text) return undefined
  const direct = parseLocaleAmount(text, decimal, exponent)
  if (direct.ok) return direct.minor
  const m = BALANCE_MARK.exec(text)
  const mark = (m?.[1] ?? m?.[3])?.toLowerCase()
  if (!m || !mark) return undefined
  const r = parseLocaleAmount(m[2], decimal, exponent)
  if (!r.ok) return undefined
  return mark === 'dr' ? -Math.abs(r.minor) : Math.abs(r.minor)
}

/** The decimal mark a column's values show, or the file's when they show none ("950", "62,000"). */
function markOf(texts: string[], fileMark: DecimalMark): DecimalMark {
  let decided = false
  for (const t of texts) if (/[.,]\d{1,2}(?:\D*)$/.test(t) || /\.\d{3},/.test(t)) decided = true
  return decided ? detectDecimalMark(texts) : fileMark
}

/** The file's decimal mark over every cell that is written as an amount. */
export function fileDecimalMark(rows: string[][], width: number): DecimalMark {
  const samples: string[] = []
  for (const r of rows) for (let i = 0; i < width; i++) if (looksLikeAmount(cell(r, i))) samples.push(cell(r, i))
  return detectDecimalMark(samples)
}

/**
 * The columns whose filled cells are amounts (nine in ten at least, none of them dates), among
 * those `open` allows. Bare numbers count ("950", "62,000": whole amounts); a column of
 * references is one too, and is set aside by the readings since it follows no balance.
 */
export function moneyColumns(rows: string[][], width: number, open: (i: number) => boolean, fileMark: DecimalMark): MoneyColumn[] {
  const found: MoneyColumn[] = []
  for (let i = 0; i < width; i++) {
    if (!open(i)) continue
    const texts = rows.map((r) => cell(r, i))
    const filledTexts = texts.filter(Boolean)
    if (filledTexts.length === 0) continue
    const mark = markOf(filledTexts, fileMark)
    let money = 0
    let amountLike = 0
    let negative = 0
    let positive = 0
    const values = texts.map((t) => {
      if (!t || isDateCell(t)) return undefined
      const v = balanceValue(t, mark, UNITS)
      if (v === undefined) return undefined
      money++
      if (looksLikeAmount(t)) amountLike++
      const s = amountSign(t)
      if (s < 0) negative++
      else if (s > 0) positive++
      return v
    })
    if (money < filledTexts.length * MOST) continue
    const nonzero = values.filter((v) => v !== undefined && v !== 0).length
    found.push({ column: i, values, filled: money, nonzero, amountLike, usual: negative > positive ? -1 : 1, negative, positive })
  }
  return found
}

/** A debit/credit column: a few values, each a mark of one side; a blank is the other side when only one side is written ("CR" or nothing). */
export interface MarkColumn {
  column: number
  /** Per row: -1 money out, 1 money in, undefined when it tells nothing. */
  sides: Array<-1 | 1 | undefined>
  /** The side a blank cell stands for, when the column writes only the other one. */
  blank?: 'debit' | 'credit'
}

/** A column whose values are debit/credit marks (blanks allowed when the filled ones are all of one side). */
export function markColumn(rows: string[][], column: number): MarkColumn | undefined {
  const values = new Set<string>()
  const seen = new Set<'debit' | 'credit'>()
  let blanks = 0
  for (const r of rows) {
    const v = cell(r, column)
    if (!v) {
      blanks++
      continue
    }
    const side = markSide(v)
    if (!side) return undefined
    seen.add(side)
    values.add(v.toLowerCase())
    if (values.size > MAX_MARKS) return undefined
  }
  if (seen.size === 0) return undefined
  const blank = blanks > 0 && seen.size === 1 ? (seen.has('credit') ? 'debit' : 'credit') : undefined
  if (blanks > 0 && !blank) return undefined
  const sides = rows.map((r) => {
    const v = cell(r, column)
    const side = v ? markSide(v) : blank
    return side === 'debit' ? (-1 as const) : side === 'credit' ? (1 as const) : undefined
  })
  return { column, sides, ...(blank ? { blank } : {}) }
}

/** A way of reading a row's amount from the columns. */
export type Reading =
  | { kind: 'amount'; column: number; invert: boolean; indicator?: number }
  | { kind: 'pair'; debit: number; credit: number }

/** Each row's amount under a reading, as money into the account; undefined where it gives none. */
export function readingAmounts(
  reading: Reading,
  money: ReadonlyMap<number, MoneyColumn>,
  marks: ReadonlyMap<number, MarkColumn>,
  rows: number,
  fee?: MoneyColumn,
): Array<number | undefined> {
  const out: Array<number | undefined> = []
  for (let k = 0; k < rows; k++) {
    let v: number | undefined
    if (reading.kind === 'amount') {
      const a = money.get(reading.column)?.values[k]
      if (a !== undefined && reading.indicator !== undefined) {
        const side = marks.get(reading.indicator)?.sides[k]
        v = side === undefined ? undefined : side * Math.abs(a)
      } else v = a
      if (v !== undefined && reading.invert) v = -v
    } else {
      const d = money.get(reading.debit)
      const c = money.get(reading.credit)
      const dv = d?.values[k]
      const cv = c?.values[k]
      if (dv === undefined && cv === undefined) v = undefined
      else
        v =
          (dv === undefined ? 0 : columnAmount(dv, 'debit', d!.usual).minor) +
          (cv === undefined ? 0 : columnAmount(cv, 'credit', c!.usual).minor)
    }
    const f = fee?.values[k]
    out.push(v === undefined || f === undefined ? v : v - Math.abs(f))
  }
  return out
}

/** Whether two columns take turns: on nine rows in ten exactly one holds an amount other than 0, and each holds some. */
export function takeTurns(a: MoneyColumn, b: MoneyColumn): boolean {
  let turns = 0
  let rows = 0
  for (let k = 0; k < a.values.length; k++) {
    const x = a.values[k] !== undefined && a.values[k] !== 0
    const y = b.values[k] !== undefined && b.values[k] !== 0
    if (!x && !y) continue
    rows++
    if (x !== y) turns++
  }
  return a.nonzero > 0 && b.nonzero > 0 && rows > 0 && turns >= rows * MOST
}
