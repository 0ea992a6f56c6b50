/** The formats of `finctl export`. */
import { AppError } from '../../../kernel/errors.js'
export const EXPORT_FORMATS = ['ledger', 'hledger', 'beancount', 'xlsx', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** A comma-separated list of formats given to `flag` (--export, --formats): each once, each known. */
export function formatsFlag(value: string, flag: string): ExportFormat[] {
  const formats = [
    ...new Set(
      value
        .split(',')
        .map((f) => f.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]
  const wrong = formats.filter((f) => !(EXPORT_FORMATS as readonly string[]).includes(f))
  if (!formats.length || wrong.length)
    throw new AppError(
      'usage',
      `${flag} takes formats among ${EXPORT_FORMATS.join(', ')}${wrong.length ? `, not ${wrong.join(', ')}` : ''}`,
    )
  return formats as ExportFormat[]
}
export type JournalFormat = 'ledger' | 'hledger' | 'beancount'

export function isJournal(f: ExportFormat): f is JournalFormat {
  return f === 'ledger' || f === 'hledger' || f === 'beancount'
}

const EXTENSION: Record<ExportFormat, string> = {
  ledger: 'ledger',
  hledger: 'journal',
  beancount: 'beancount',
  xlsx: 'xlsx',
  csv: 'csv',
}

/** The file of a month's export (a close's, a pack's): books-MONTH.journal, .csv, ... */
export const exportFileName = (month: string, format: ExportFormat) => `books-${month}.${EXTENSION[format]}`
