/**
 * What the plan and map stages of a CSV import (plan.ts, map-rows.ts) read off a record the same
 * way: its cells, whether it has a date, whether its text names a balance, the reasons a line is
 * skipped, a --where column, and the import's own error.
 */
import { noColumn, type ColumnMap } from './mapping.js'
import { balanceKind, type RecordType } from './balance-rows.js'
import { looksLikeDate } from './dates.js'

/** A file that cannot be imported as asked: the message says why, in the user's words. */
export class ImportError extends Error {}

/** A row's description when the file has no text column at all (no payee, purpose, reference or type). */
export const NO_DESCRIPTION = '(no description)'

/**
 * Whether a date cell looks like a date (its row a transaction) or not (a balance or footer line,
 * skipped), as dates.ts's looksLikeDate: digit groups, a month's name, a given layout's shape. Called
 * as the regular expression it was: `DATE_LIKE.test(text, format?)`.
 */
export const DATE_LIKE = { test: looksLikeDate }

/** Why a line after the header is skipped, not rejected: it has no date (a balance, a footer). */
export function notTransaction(fields: string[]): string {
  return `not a transaction line (no date: ${JSON.stringify(fields.filter(Boolean).join(' ').slice(0, 60))})`
}

/** What a row's text says it is: its description cells, or its payee when they are empty (a payee "Balance" of a described row is a payee). */
export function balanceOf(
  fields: string[],
  map: ColumnMap,
): { kind: NonNullable<ReturnType<typeof balanceKind>>; text: string } | undefined {
  const d = map.description
  const described =
    d.length === 1
      ? cell(fields, d[0])
      : d
          .map((i) => cell(fields, i))
          .filter(Boolean)
          .join(' ')
  const text = described || cell(fields, map.merchant_name)
  const kind = balanceKind(text)
  return kind ? { kind, text } : undefined
}

export const balanceReason = (b: { kind: string | undefined; text: string }) =>
  `${b.kind}, not a movement (its text: ${JSON.stringify(b.text.slice(0, 60))})`
export const recordTypeReason = (code: string, t: RecordType) =>
  `record type ${code} in column ${t.column + 1}, not a movement (movements are ${t.movement})`

/** A field as the file writes it (line breaks and spaces kept); '' when the row has no such column. */
export function rawCell(fields: string[], index: number | undefined): string {
  if (index === undefined) return ''
  return (index < 0 ? fields[fields.length + index] : fields[index]) ?? ''
}

export function cell(fields: string[], index: number | undefined): string {
  return rawCell(fields, index).trim()
}

/** Why a row is no movement by a column's value (ImportPlan.exclude), or undefined. */
export function excludedReason(
  x: { column: number; values: string[]; why: string } | undefined,
  header: string[],
  fields: string[],
): string | undefined {
  if (!x) return undefined
  const value = cell(fields, x.column)
  return x.values.includes(value) ? `${header[x.column].trim()} is ${JSON.stringify(value)}: ${x.why}, not a movement` : undefined
}

/** A column by its header name or number from 1 (negative: from the right end of each row). */
export function columnIndex(header: string[], column: string, headerless = false): number {
  if (/^-?\d+$/.test(column)) return Number(column) > 0 ? Number(column) - 1 : Number(column)
  const i = headerless ? -1 : header.findIndex((h) => h.trim() === column.trim())
  if (i < 0) throw new ImportError(noColumn(header, column, headerless))
  return i
}
