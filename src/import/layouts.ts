/**
 * Which bank's layout a file is (bank-layouts.ts): its header's first names, or for a bank that
 * writes no header the shape of its first line; and the reading options a layout adds under the
 * user's own (flags win, field by field).
 */
import { BANK_LAYOUTS, type BankLayout } from './bank-layouts.js'
import { normalizeHeader, type Role } from './mapping.js'
import type { CsvRecord } from './read-rows.js'

/** The reading options a layout sets (a part of the plan's CsvMapping). */
interface LayoutOptions {
  map?: Array<[Role, string]>
  dateFormat?: string
  decimalComma?: boolean
  noHeader?: boolean
  exclude?: BankLayout['exclude']
  invertSign?: boolean
}

export interface LayoutMatch {
  layout: BankLayout
  /** How it was recognised, for the plan. */
  by: 'its header' | 'its first line'
  /** The record of the header (or of the first line). */
  index: number
}

const HEADERS = BANK_LAYOUTS.map((l) => ({ layout: l, names: l.header?.map(normalizeHeader) }))

/** Whether a header-less layout's first line is this record's shape. */
const shapeOf = (l: BankLayout, first: CsvRecord | undefined) =>
  first !== undefined &&
  l.firstLine !== undefined &&
  first.fields.length === l.firstLine.length &&
  l.firstLine.every((p, i) => p.test(first.fields[i].trim()))

/** Whether a layout's header names start this record's cells (normalised). */
const headerOf = (names: string[] | undefined, cells: string[]) =>
  names !== undefined && names.length <= cells.length && names.every((n, i) => cells[i] === n)

/** The layout of the first records of a file (the first 50 and one), or undefined. */
export function recogniseLayout(records: CsvRecord[]): LayoutMatch | undefined {
  for (const l of BANK_LAYOUTS) if (shapeOf(l, records[0])) return { layout: l, by: 'its first line', index: 0 }
  for (let index = 0; index < records.length && index < 50; index++) {
    const cells = records[index].fields.map(normalizeHeader)
    const found = HEADERS.find(({ names }) => headerOf(names, cells))
    if (found) return { layout: found.layout, by: 'its header', index }
  }
  return undefined
}

/** Every layout that would recognise these records by itself, not only the first: no file should have two. */
export function layoutsOf(records: CsvRecord[]): BankLayout[] {
  const rows = records.slice(0, 50).map((r) => r.fields.map(normalizeHeader))
  return HEADERS.filter(({ layout, names }) => shapeOf(layout, records[0]) || rows.some((cells) => headerOf(names, cells))).map(
    ({ layout }) => layout,
  )
}

/** The user's options over a layout's: each flag given wins, a field --map names keeps the user's column. */
export function withLayout<T extends LayoutOptions>(o: T, l: BankLayout): T {
  const mapped = new Set((o.map ?? []).map(([role]) => role))
  const map = [...(l.map ?? []).filter(([role]) => !mapped.has(role)), ...(o.map ?? [])]
  return {
    ...o,
    ...(map.length ? { map } : {}),
    dateFormat: o.dateFormat ?? l.dateFormat,
    decimalComma: o.decimalComma ?? l.decimalComma,
    noHeader: o.noHeader ?? (l.firstLine ? true : undefined),
    exclude: o.exclude ?? l.exclude,
    invertSign: o.invertSign ?? l.invertSign,
  }
}
