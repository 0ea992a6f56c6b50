/** The formats of `finctl export`. */
import { AppError } from '../../../kernel/errors.js'
import { EXPORT_FORMATS, type ExportFormatName } from '../../../kernel/vocabulary.js'

export { EXPORT_FORMATS }
export type ExportFormat = ExportFormatName

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

/** The filing formats, which post to the numbers of a chart of accounts (docs/exporting.md, "A chart of accounts"). */
export type ChartFormat = 'datev' | 'sie4' | 'saft-no'

export function isChart(f: ExportFormat): f is ChartFormat {
  return f === 'datev' || f === 'sie4' || f === 'saft-no'
}

/** The formats written in a single-byte code page (DATEV: Windows-1252, SIE: CP437), not UTF-8. */
export function isCodePage(f: ExportFormat): boolean {
  return f === 'datev' || f === 'sie4'
}

/** What a user calls each format in a message. */
export const FORMAT_NAME: Record<ExportFormat, string> = {
  ledger: 'ledger',
  hledger: 'hledger',
  beancount: 'beancount',
  xlsx: 'xlsx',
  csv: 'csv',
  datev: 'DATEV',
  sie4: 'SIE 4',
  'saft-no': 'SAF-T',
}

const EXTENSION: Record<ExportFormat, string> = {
  ledger: 'ledger',
  hledger: 'journal',
  beancount: 'beancount',
  xlsx: 'xlsx',
  csv: 'csv',
  datev: 'csv',
  sie4: 'se',
  'saft-no': 'saft.xml',
}

/**
 * The file of a month's export (a close's, a pack's): books-MONTH.journal, .csv, ...; DATEV's import
 * takes a Buchungsstapel by a name that starts with EXTF_.
 */
export const exportFileName = (month: string, format: ExportFormat) =>
  `${format === 'datev' ? 'EXTF_' : ''}books-${month}.${EXTENSION[format]}`
