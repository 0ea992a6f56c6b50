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
}

export interface LayoutMatch {
  layout: BankLayout
  /** How it was recognised, for the plan. */
  by: 'its header' | 'its first line'
  /** The record of the header (or of the first line). */
  index: number
}

const HEADERS = BANK_LAYOUTS.map((l) => ({ layout: l, names: l.header?.map(normalizeHeader) }))

/** The layout of the first records of a file (the first 50 and one), or undefined. */
export function recogniseLayout(records: CsvRecord[]): LayoutMatch | undefined {
  const first = records[0]
  for (const l of BANK_LAYOUTS) {
    const shape = l.firstLine
    if (first && shape && first.fields.length === shape.length && shape.every((p, i) => p.test(first.fields[i].trim())))
      return { layout: l, by: 'its first line', index: 0 }
  }
  for (let index = 0; index < records.length && index < 50; index++) {
    const cells = records[index].fields.map(normalizeHeader)
    const found = HEADERS.find(({ names }) => names && names.length <= cells.length && names.every((n, i) => cells[i] === n))
    if (found) return { layout: found.layout, by: 'its header', index }
  }
  return undefined
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
  }
}
