/**
 * What the plan stage takes (a mapping: flags, a saved mapping, an upload's or a seed step's
 * options) and gives (the plan every row is read by); plan.ts computes one from the other.
 */
import type { DecimalMark } from './amount.js'
import type { RecordType } from './balance-rows.js'
import type { BalancePlan } from './money-readings.js'
import type { DateFormat } from './dates.js'
import type { ColumnSigns } from './debit-credit.js'
import type { FileCurrency } from './file-currency.js'
import type { ColumnMap, Role } from './mapping.js'
import type { FileAccounts } from './own-account.js'
import type { CsvLayout } from './read-rows.js'

/**
 * How a bank's CSV files are read and mapped: the flags of `tx import`, a saved mapping (which adds
 * its `--set` values), an upload's options, a seed step's. Handed to the plan whole.
 */
export interface CsvMapping {
  encoding?: string
  delimiter?: string
  dateFormat?: string
  decimalComma?: boolean
  /** Lines before the header row (with `noHeader`: before the first transaction). */
  skipLines?: number
  /** The file has no header row: its first line (after `skipLines`) is a transaction, columns go by number. */
  noHeader?: boolean
  /** Only the rows of this account (its number, or the number's end) of a file that holds several. */
  accountNumber?: string
  /** Rows whose column (by its header name) holds one of these values are no movements, and why (a bank layout's). */
  exclude?: { column: string; values: string[]; why: string }
  /** false: no bank layout is recognised (bank-layouts.ts), the file is read by detection alone. */
  layouts?: false
  map?: Array<[Role, string]>
  /** Keep only rows whose column (name or 1-based number) holds this value. */
  where?: Array<[string, string]>
  invertSign?: boolean
  indicatorDebit?: string[]
  /** The account is a card or a loan: a running balance in the file may be written as owed. */
  liability?: boolean
  /** --no-balance-check: a running balance still chooses the reading, but a row that breaks it is not refused. */
  noBalanceCheck?: boolean
}

export interface ImportPlan {
  layout: CsvLayout
  headerLine: number
  header: string[]
  map: ColumnMap
  dateFormat: DateFormat
  decimal: DecimalMark
  /** With debit and credit columns: the sign each one's values are written with (debit-credit.ts). */
  signs?: ColumnSigns
  /** Transaction rows of the file; an estimate when `settledEarly`. */
  dataRows: number
  /** Transaction rows the plan read (all of them, unless `settledEarly`). */
  rowsRead: number
  /**
   * The plan was settled from the start of the file (`planImport(path, o, true)`): its
   * decisions are final, `dataRows` is estimated from the file's size and `skipped` holds only the
   * lines read so far. The import reads every row with it and counts the rest itself.
   */
  settledEarly?: boolean
  /** Lines after the header that are not transactions (balances, turnovers, footers), not counted as rejects. */
  skipped: Array<{ line: number; reason: string }>
  /** A column of record types (balance-rows.ts): rows with another code than `movement` are skipped. */
  recordType?: RecordType
  /** --where: the columns (0-based, negative from the right) and the values a row must hold; then no row is skipped by itself. */
  where: Array<[number, string]>
  /** --invert-sign (or a running balance that showed money out written as positive): every amount flipped. */
  invertSign: boolean
  /** A running balance column the amounts chain with: the map stage checks every row against it. */
  balance?: BalancePlan
  /** The side a blank indicator cell stands for, when the column writes only the other side's mark. */
  indicatorBlank?: 'debit' | 'credit'
  /** --indicator-debit's values as marks are compared (marks.ts, markOf). */
  debitValues?: string[]
  filtered: number
  /** The file has no header row: `headerLine` is the line before its first transaction. */
  headerless?: true
  /** Text columns a row's description is taken from, in order, when its description cells are empty. */
  fallbacks: number[]
  /** Rows whose column holds one of these values are no movements (a bank layout's: a reverted card payment). */
  exclude?: { column: number; values: string[]; why: string }
  /** The currency the file states, and a currency column's codes (compared with the account's: file-currency.ts). */
  currency: FileCurrency
  /** The account numbers of the rows planned, when the file has a column of them (own-account.ts). */
  accounts?: FileAccounts
  /** --account-number: only the rows of this account are read. */
  accountChoice?: string
  notes: string[]
}
