/**
 * A debit/credit indicator beside one amount column. A header that says so ("D/C", "Soll/Haben",
 * "Af Bij") maps it (mapping.ts) and it decides every row's sign. Otherwise a column is found by its
 * values over the rows of the plan: under a header that may hold other kinds ("Transaction Type",
 * "Type", "Sens", "Tipo") every value a debit or credit mark (debit/credit, DR/CR, D/C, S/H), under
 * a header of no field only whole-word marks (DEBIT/CREDIT); it decides the sign when the amounts
 * are all unsigned, and when they carry signs of their own the plan says it was not taken. With
 * `--indicator-debit VALUE` the column holding that value is the indicator. Amounts all unsigned and
 * no indicator: the plan says that every row reads as money in.
 */
import { amountSign } from './amount.js'
import { columnName, takenColumns } from './column-evidence.js'
import { isKnownHeader, normalizeHeader, type ColumnMap } from './mapping.js'
import { markOf, markSide, TYPE_HEADERS } from './marks.js'
import { cell, ImportError } from './row-text.js'

/** Distinct values kept of a column: an indicator has a few. */
const MAX_VALUES = 8

interface Candidate {
  column: number
  /** Its header may hold debit/credit marks or other kinds (TYPE_HEADERS). */
  typed: boolean
  /** markOf(value) -> the value as first written. */
  values: Map<string, string>
  /** Every value so far is a debit or credit mark. */
  marks: boolean
  /** Some value is a single letter or sign (D, C, S, H, +): a mark only under a typed header, or as one of a pair. */
  letters: boolean
  /** Transaction rows where it holds a value. */
  filled: number
  /** Some value is one of --indicator-debit. */
  given: boolean
}

export interface IndicatorDecision {
  /** The column found by its values (undefined: none, or the header's own). */
  indicator?: number
  /** The side a blank cell of it stands for: the column writes only the other side's mark ("CR" or nothing). */
  blank?: 'debit' | 'credit'
  notes: string[]
}

/** The side a blank stands for in a column whose values are all marks of the other side, with blank rows among them. */
function blankSide(c: Candidate, rows: number): 'debit' | 'credit' | undefined {
  if (c.filled >= rows || c.filled === 0 || !c.marks) return undefined
  const sides = new Set([...c.values.values()].map(markSide))
  if (sides.size !== 1) return undefined
  return sides.has('credit') ? 'debit' : 'credit'
}

export class IndicatorFinder {
  private candidates: Candidate[] = []
  /** The header's indicator column, to name its values in the plan. */
  private readonly mapped?: Candidate
  private negative = 0
  private positive = 0
  private rows = 0
  private readonly debitValues: string[]

  constructor(
    private readonly header: string[],
    private readonly map: ColumnMap,
    indicatorDebit: string[] | undefined,
  ) {
    this.debitValues = (indicatorDebit ?? []).map(markOf)
    if (map.amount === undefined) return
    const taken = takenColumns(map)
    const candidate = (column: number, typed: boolean): Candidate => ({
      column,
      typed,
      values: new Map(),
      marks: true,
      letters: false,
      filled: 0,
      given: false,
    })
    if (map.indicator !== undefined) {
      this.mapped = candidate(map.indicator, true)
      return
    }
    header.forEach((h, i) => {
      if (taken.has(i)) return
      const typed = TYPE_HEADERS.has(normalizeHeader(h))
      if (typed || !isKnownHeader(h) || this.debitValues.length) this.candidates.push(candidate(i, typed))
    })
  }

  /** One transaction row of the plan. */
  add(fields: string[]): void {
    if (this.map.amount === undefined) return
    this.rows++
    const sign = amountSign(cell(fields, this.map.amount))
    if (sign < 0) this.negative++
    else if (sign > 0) this.positive++
    if (this.mapped) see(this.mapped, cell(fields, this.mapped.column), this.debitValues)
    let dropped = false
    for (const c of this.candidates) {
      see(c, cell(fields, c.column), this.debitValues)
      dropped ||= this.out(c)
    }
    // A column out of the running costs nothing more a row.
    if (dropped) this.candidates = this.candidates.filter((c) => !this.out(c))
  }

  /**
   * Whether a column's values make it the indicator: marks, a few of them; single letters under a
   * header of no field only as a pair on every row, one money out and one money in (Knab's
   * `CreditDebet`: D and C), since a lone letter could mean anything there.
   */
  private isIndicator(c: Candidate): boolean {
    if (!c.marks || c.values.size === 0 || c.values.size > MAX_VALUES) return false
    if (c.typed || !c.letters) return true
    const sides = new Set([...c.values.values()].map(markSide))
    return c.values.size === 2 && sides.size === 2 && c.filled === this.rows
  }

  /** A candidate that can no longer be the indicator: not marks (or too many values for --indicator-debit's column). */
  private out(c: Candidate): boolean {
    return this.debitValues.length ? c.values.size > MAX_VALUES : !c.marks || (c.letters && !c.typed && c.values.size > 2)
  }

  /** The indicator found (if any) and the plan's words on the signs; throws when --indicator-debit names no column's value. */
  decide(o: { invertSign?: boolean }): IndicatorDecision {
    const amount = this.map.amount
    if (amount === undefined) return { notes: [] }
    const name = (i: number) => `"${columnName(this.header, i)}"`
    const unsigned = this.negative === 0 && this.positive > 0
    if (this.mapped) {
      const blank = this.debitValues.length ? undefined : blankSide(this.mapped, this.rows)
      return {
        ...(blank ? { blank } : {}),
        notes: [
          `debit/credit indicator ${name(this.mapped.column)}: ${sides(this.mapped, this.debitValues)}${blank ? `, a blank money ${blank === 'debit' ? 'out' : 'in'}` : ''}`,
        ],
      }
    }
    const typedFirst = (list: Candidate[]) => list.find((c) => c.typed) ?? list[0]
    if (this.debitValues.length) {
      const found = typedFirst(this.candidates.filter((c) => c.given && c.values.size <= MAX_VALUES))
      if (!found)
        throw new ImportError(
          `--indicator-debit: no column holds ${this.debitValues.map((v) => `"${v}"`).join(' or ')}: name the debit/credit column with --map indicator=Column`,
        )
      return {
        indicator: found.column,
        notes: [`debit/credit indicator ${name(found.column)} (it holds --indicator-debit's value): ${sides(found, this.debitValues)}`],
      }
    }
    const marked = typedFirst(this.candidates.filter((c) => this.isIndicator(c)))
    if (marked && unsigned)
      return {
        indicator: marked.column,
        notes: [
          `debit/credit indicator ${name(marked.column)}: the amounts are unsigned, so it gives each row's sign: ${sides(marked, [])}`,
        ],
      }
    if (marked)
      return {
        notes: [
          `${name(marked.column)} holds debit/credit marks, but the amounts carry signs of their own, which are kept (--map indicator=${columnName(this.header, marked.column)} takes the sign from it instead)`,
        ],
      }
    if (!unsigned) return { notes: [] }
    const rows = this.positive === 1 ? 'the one amount' : `all ${this.positive.toLocaleString('en-US')} amounts`
    const are = this.positive === 1 ? 'is' : 'are'
    return {
      notes: [
        o.invertSign
          ? `amounts: ${rows} in ${name(amount)} ${are} unsigned and no column says debit or credit: with --invert-sign every row reads as money out`
          : `amounts: ${rows} in ${name(amount)} ${are} unsigned and no column says debit or credit: every row reads as money in (if some are money out, name the column that tells: --map indicator=Column, with --indicator-debit VALUE unless its values are debit/credit, D/C, DR/CR or S/H; if all are, give --invert-sign)`,
      ],
    }
  }
}

/** Takes one value of a candidate column. */
function see(c: Candidate, value: string, debitValues: string[]): void {
  if (!value) return
  c.filled++
  const key = markOf(value)
  if (!c.values.has(key) && c.values.size <= MAX_VALUES) c.values.set(key, value)
  if (c.marks && !markSide(value)) c.marks = false
  if (key.length <= 1) c.letters = true
  if (!c.given && debitValues.includes(key)) c.given = true
}

/** Which of a column's values are money out and which money in. */
function sides(c: Candidate, debitValues: string[]): string {
  const out: string[] = []
  const into: string[] = []
  for (const [key, value] of c.values) {
    const debit = debitValues.length ? debitValues.includes(key) : markSide(value) === 'debit'
    const credit = debitValues.length ? !debit : markSide(value) === 'credit'
    if (debit) out.push(`"${value}"`)
    else if (credit) into.push(`"${value}"`)
  }
  const list = (l: string[]) => l.join(', ')
  const parts = [out.length ? `${list(out)} money out` : '', into.length ? `${list(into)} money in` : ''].filter(Boolean)
  return parts.length ? parts.join(', ') : 'no value of it seen yet'
}
