/**
 * Mapping decisions a header cannot make alone, made from the values of the rows after it
 * (plan.ts keeps the first EVIDENCE_ROWS aside until they are made): the date column when no
 * header names one ("created"), and the description when the column named so holds one value on
 * every row (a product name beside the real text in "Description 1..3"). And the plan's line that
 * names the column taken for every field.
 */
import { readsAsDate, type DateFormat } from './dates.js'
import { headerBase, isDescriptionHeader, normalizeHeader, ROLES, type ColumnMap, type Role } from './mapping.js'
import { cell, DATE_LIKE } from './row-text.js'

/** Rows after the header that the columns are decided over (the whole file when it has fewer). */
export const EVIDENCE_ROWS = 2000

/** The columns a role has taken. */
export function takenColumns(map: ColumnMap): Set<number> {
  const taken = new Set<number>()
  for (const role of ROLES) {
    const v = map[role]
    for (const i of Array.isArray(v) ? v : v === undefined ? [] : [v]) if (i >= 0) taken.add(i)
  }
  return taken
}

/** A time of day ("10:22:13") reads as MM:DD:YY: it is no date. */
const TIME = /^\s*\d{1,2}:\d{2}(:\d{2})?\s*$/
const COMPACT = /^\s*\d{8}(?:\d{4}(?:\d{2}(?:\.\d+)?)?)?(?:\[[^\]]*\])?(\D|$)/

function dateKind(text: string): 'separated' | 'compact' | undefined {
  if (!DATE_LIKE.test(text) || TIME.test(text) || !readsAsDate(text)) return undefined
  return COMPACT.test(text) ? 'compact' : 'separated'
}

/** Whether a cell holds a date (in some order), not a time of day. */
export const isDateCell = (text: string): boolean => dateKind(text) !== undefined

/**
 * The column whose values are dates on at least half the rows (the rest: balance and footer lines),
 * the most of them, the leftmost on a tie; written with separators before eight digits (20240105 may
 * be a reference). Undefined when none is.
 */
export function dateColumnByValues(header: string[], rows: string[][], taken: Set<number>, format?: DateFormat): number | undefined {
  const width = Math.max(header.length, ...rows.map((r) => r.length))
  let best: { column: number; dated: number; compact: boolean } | undefined
  // A date of --date-format's layout is one too ("25/2000/01" of DD/YYYY/MM).
  const kindOf = (text: string) => dateKind(text) ?? (format && DATE_LIKE.test(text, format) ? 'separated' : undefined)
  for (let i = 0; i < width; i++) {
    if (taken.has(i)) continue
    let separated = 0
    let compact = 0
    for (const r of rows) {
      const kind = kindOf(cell(r, i))
      if (kind === 'separated') separated++
      else if (kind === 'compact') compact++
    }
    const isCompact = separated * 2 < rows.length
    const dated = isCompact ? compact : separated
    if (dated === 0 || dated * 2 < rows.length) continue
    if (!best || (best.compact && !isCompact) || (best.compact === isCompact && dated > best.dated))
      best = { column: i, dated, compact: isCompact }
  }
  return best?.column
}

const LETTER = /\p{L}/u

/** Whether a column's values differ between rows. */
function varies(rows: string[][], i: number): boolean {
  const first = cell(rows[0], i)
  return rows.some((r) => cell(r, i) !== first)
}

/** Whether a column holds text: a letter in most of its filled cells, and not dates. */
function isText(rows: string[][], i: number): boolean {
  let filled = 0
  let text = 0
  for (const r of rows) {
    const v = cell(r, i)
    if (!v) continue
    filled++
    if (LETTER.test(v) && !dateKind(v)) text++
  }
  return filled > 0 && text * 2 > filled
}

const numbered = (h: string) => /\d$/.test(normalizeHeader(h))

export interface DescriptionChoice {
  columns: number[]
  /** Why the column named so was passed over, for the plan. */
  why?: string
}

/**
 * The description's columns when the values say better than the header: a numbered set
 * ("Description 1", "Description 2") is read whole; a column with one value on every row is never
 * the description when another text column varies: in turn its numbered set, another description
 * column (with its set), the merchant, the text column with the most values. Undefined: as mapped.
 * `rows`: transaction rows (two at least, or nothing is decided).
 */
export function descriptionByValues(header: string[], map: ColumnMap, rows: string[][]): DescriptionChoice | undefined {
  if (map.description.length !== 1 || map.description[0] < 0 || rows.length < 2) return undefined
  const first = map.description[0]
  const taken = takenColumns(map)
  const filled = (i: number) => rows.some((r) => cell(r, i) !== '')
  /** A column and the other columns of its numbered set that hold something, left to right. */
  const setOf = (i: number) => {
    const base = headerBase(header[i] ?? '')
    const set = header.map((_, k) => k).filter((k) => k === i || (!taken.has(k) && numbered(header[k]) && headerBase(header[k]) === base))
    return set.filter((k) => k === i || filled(k))
  }
  if (varies(rows, first)) {
    if (!numbered(header[first] ?? '')) return undefined
    const set = setOf(first)
    return set.length > 1 ? { columns: set } : undefined
  }
  const siblings = setOf(first).filter((k) => k !== first)
  const others = header.map((_, k) => k).filter((k) => !taken.has(k) && k !== first)
  const described = others.filter((k) => isDescriptionHeader(header[k]) && varies(rows, k))
  const text = others.filter((k) => varies(rows, k) && isText(rows, k))
  const distinct = (k: number) => new Set(rows.map((r) => cell(r, k))).size
  const columns = siblings.some((k) => varies(rows, k))
    ? siblings
    : described.length
      ? setOf(described[0])
      : map.merchant_name !== undefined && map.merchant_name !== first && varies(rows, map.merchant_name)
        ? [map.merchant_name]
        : text.length
          ? [text.reduce((a, b) => (distinct(b) > distinct(a) ? b : a))]
          : undefined
  if (!columns) return undefined
  const value = cell(rows[0], first)
  return {
    columns,
    why: `"${header[first]}" holds ${value ? `one value on every row (${JSON.stringify(value.slice(0, 40))})` : 'nothing on any row'}, so it is not the description`,
  }
}

/** How the plan names a column: its header, or its number when it has none (negative: from the right end of each row). */
export function columnName(header: string[], i: number): string {
  if (i < 0) return `column ${i}`
  const h = (header[i] ?? '').trim()
  if (!h) return `column ${i + 1}`
  return /[,"]|<-|\s\+\s/.test(h) ? JSON.stringify(h) : h
}

/** The plan's line naming the column taken for every field; `how` adds a word to some ("by its values"). */
export function columnsNote(header: string[], map: ColumnMap, how: Partial<Record<Role, string>> = {}): string {
  const parts: string[] = []
  for (const role of ROLES) {
    const v = map[role]
    const columns = Array.isArray(v) ? v : v === undefined ? [] : [v]
    if (columns.length === 0) continue
    parts.push(`${role} <- ${columns.map((i) => columnName(header, i)).join(' + ')}${how[role] ? ` (${how[role]})` : ''}`)
  }
  return `columns: ${parts.join(', ')}; change one with --map FIELD=Column`
}
