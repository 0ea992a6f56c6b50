/**
 * Which upload options apply to which format: each is applied to every format it is accepted for,
 * or refused for the others with the reason, never taken and ignored. The upload answers 400
 * naming the field; `finctl statements upload` refuses the flag (exit 2) before it uploads.
 */
import { aFileOf, STATEMENT_FORMAT } from '../../kernel/statement-formats.js'
import type { StatementFormatName } from './schemas.js'

/** The upload options as given (UploadOptions, or the flags of `statements upload`). */
export interface GivenOptions {
  dateFormat?: string
  delimiter?: string
  accountNumber?: string
  map?: readonly unknown[]
  where?: readonly unknown[]
  decimalComma?: boolean
  skipLines?: number
  noHeader?: boolean
  noLayout?: boolean
  invertSign?: boolean
  noBalanceCheck?: boolean
}

const nameOf = (f: StatementFormatName) => STATEMENT_FORMAT[f].name

export interface OptionProblem {
  /** The upload field (`date_format`, `map`, `account_number`, ...). */
  field: string
  message: string
}

interface Rule {
  field: string
  given: (o: GivenOptions) => boolean
  formats: StatementFormatName[]
  why: (format: StatementFormatName) => string
}

const CSV_ONLY: StatementFormatName[] = ['csv']
const aFile = aFileOf
const noColumns = (what: string) => (f: StatementFormatName) => `${what}; ${aFile(f)} has none`

const RULES: Rule[] = [
  { field: 'map', given: (o) => Boolean(o.map?.length), formats: CSV_ONLY, why: noColumns('it names the columns of a CSV file') },
  { field: 'where', given: (o) => Boolean(o.where?.length), formats: CSV_ONLY, why: noColumns('it chooses rows by their columns') },
  {
    field: 'delimiter',
    given: (o) => o.delimiter !== undefined,
    formats: CSV_ONLY,
    why: noColumns('it separates the columns of a CSV file'),
  },
  {
    field: 'skip_lines',
    given: (o) => o.skipLines !== undefined,
    formats: CSV_ONLY,
    why: (f) => `it skips the lines before a CSV header row; ${aFile(f)} has no header row`,
  },
  {
    field: 'no_header',
    given: (o) => o.noHeader === true,
    formats: CSV_ONLY,
    why: (f) => `it says a CSV file's first line is a transaction; ${aFile(f)} has no header row`,
  },
  {
    field: 'no_layout',
    given: (o) => o.noLayout === true,
    formats: CSV_ONLY,
    why: (f) => `it reads a CSV file without the bank layouts finctl knows; ${aFile(f)} is read by its format`,
  },
  { field: 'invert_sign', given: (o) => o.invertSign === true, formats: CSV_ONLY, why: (f) => `${nameOf(f)} amounts carry their own sign` },
  {
    field: 'no_balance_check',
    given: (o) => o.noBalanceCheck === true,
    formats: CSV_ONLY,
    why: (f) => `it lets a CSV file's lines part from its running balance column; ${aFile(f)} has its balances checked as the statement's`,
  },
  {
    field: 'date_format',
    given: (o) => o.dateFormat !== undefined,
    formats: ['csv', 'qif'],
    why: (f) => `${nameOf(f)} writes every date one way (${STATEMENT_FORMAT[f].dateLayout})`,
  },
  {
    field: 'decimal_comma',
    given: (o) => o.decimalComma === true,
    formats: ['csv', 'qif'],
    why: (f) =>
      f === 'mt940'
        ? 'MT940 amounts always have a decimal comma'
        : `each ${nameOf(f)} amount is read with the decimal mark it is written with`,
  },
]

const list = (formats: StatementFormatName[]) => formats.map(nameOf).join(' and ')

/** The options given that do not apply to `format`, each with the reason. */
export function inapplicableOptions(format: StatementFormatName, o: GivenOptions): OptionProblem[] {
  return RULES.filter((r) => r.given(o) && !r.formats.includes(format)).map((r) => ({
    field: r.field,
    message: `applies to ${list(r.formats)} files, not to this ${nameOf(format)} file: ${r.why(format)}`,
  }))
}
