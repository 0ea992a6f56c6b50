/**
 * The statement formats, once: what each is called, the file names it comes in and how it writes
 * its dates. Without zod, so that commands, completion and the parsers' index read the same table;
 * the service's schema wraps the ids. A new format is a row here and its parser.
 */

interface FormatRow {
  /** What people call it: "CAMT.053". */
  readonly name: string
  /** "an OFX file", "a QIF file". */
  readonly article: 'a' | 'an'
  /** Extensions that name it, lower case, dot included; the first is the usual one. */
  readonly extensions: readonly string[]
  /** How it writes every date, when the format fixes that; CSV and QIF vary by bank. */
  readonly dateLayout?: string
  /** Read by a statement parser; CSV is read through its column mapping instead. */
  readonly parsed: boolean
}

const ROWS = {
  csv: { name: 'CSV', article: 'a', extensions: ['.csv', '.tsv'], parsed: false },
  ofx: { name: 'OFX', article: 'an', extensions: ['.ofx'], dateLayout: 'YYYYMMDD', parsed: true },
  qfx: { name: 'QFX', article: 'a', extensions: ['.qfx'], dateLayout: 'YYYYMMDD', parsed: true },
  qif: { name: 'QIF', article: 'a', extensions: ['.qif'], parsed: true },
  camt053: { name: 'CAMT.053', article: 'a', extensions: ['.camt', '.camt053'], dateLayout: 'YYYY-MM-DD', parsed: true },
  camt054: { name: 'CAMT.054', article: 'a', extensions: ['.camt054'], dateLayout: 'YYYY-MM-DD', parsed: true },
  mt940: { name: 'MT940', article: 'an', extensions: ['.sta', '.mt940', '.940', '.swi'], dateLayout: 'YYMMDD', parsed: true },
} as const satisfies Record<string, FormatRow>

export type StatementFormat = keyof typeof ROWS

/** The ids, in the order help and errors list them. */
export const STATEMENT_FORMATS = Object.keys(ROWS) as [StatementFormat, ...StatementFormat[]]

export const STATEMENT_FORMAT: Readonly<Record<StatementFormat, FormatRow>> = ROWS

/** Is `s` a format's id? */
export const isStatementFormat = (s: string): s is StatementFormat => Object.hasOwn(ROWS, s)

/** "an OFX file", "a QIF statement". */
export const aFileOf = (f: StatementFormat, noun = 'file'): string => `${ROWS[f].article} ${ROWS[f].name} ${noun}`

/** The formats a person reads in help: "CSV, OFX/QFX, QIF, CAMT.053 or MT940" (QFX is OFX's dialect). */
export function formatNames(which: 'all' | 'parsed' = 'all'): string {
  const names = STATEMENT_FORMATS.filter((f) => f !== 'qfx' && (which === 'all' || ROWS[f].parsed)).map((f) =>
    f === 'ofx' ? 'OFX/QFX' : ROWS[f].name,
  )
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}

/** The statuses of an uploaded statement. */
export const STATEMENT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const
