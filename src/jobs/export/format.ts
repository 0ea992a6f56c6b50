/** The formats of `finctl export`. */
export const EXPORT_FORMATS = ['ledger', 'hledger', 'beancount', 'xlsx', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
export type JournalFormat = 'ledger' | 'hledger' | 'beancount'

export function isJournal(f: ExportFormat): f is JournalFormat {
  return f === 'ledger' || f === 'hledger' || f === 'beancount'
}
