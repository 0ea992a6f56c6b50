/** The csv export: COLUMNS as text, through the project's CSV writer and its formula guard (RFC 4180, CRLF). */
import type { ExportTransaction } from '../schemas.js'
import { csvLine } from '../../../kernel/csv-write.js'
import { decimal } from './amounts.js'
import { COLUMNS, type Cell, type RowContext } from './columns.js'

function cellText(c: Cell): string {
  switch (c.kind) {
    case 'empty':
      return ''
    case 'amount':
      return decimal(c.minor, c.currency)
    case 'number':
      return c.text
    case 'bool':
      return String(c.value)
    default:
      return c.value
  }
}

export function csvHeader(): string {
  return csvLine(COLUMNS.map((c) => c.header))
}

export function csvRow(t: ExportTransaction, ctx: RowContext): string {
  return csvLine(COLUMNS.map((c) => cellText(c.cell(t, ctx))))
}
