/**
 * One interface for every bank-statement format (after Actual's `<format>2json` importers): a
 * parser takes the file's bytes, never a path, and returns the statements the file holds in one
 * normalised shape. Amounts are integer minor units of the statement's currency, parsed from the
 * file's decimal text, never through a float.
 */

export type { StatementFormat } from '../../kernel/statement-formats.js'

import type { StatementFormat } from '../../kernel/statement-formats.js'

export interface ImportedTransaction {
  /** Booking date, ISO YYYY-MM-DD. */
  date: string
  /** Value date (CAMT ValDt, MT940 value date, OFX DTAVAIL), when the file gives one. */
  valueDate?: string
  /** Signed, in minor units of `currency`: positive is money into the account. */
  amountMinor: number
  /** ISO 4217 code of the amount. */
  currency: string
  /** Counterparty or payee name, when the file has one. */
  payee?: string
  /** Free text: memo, remittance information, :86: purpose lines; runs of white space made one space. */
  memo?: string
  /** The same free text as the file writes it (line breaks, runs of spaces), when that differs from `memo`. */
  rawMemo?: string
  /** The bank's own id of the line (OFX FITID, CAMT AcctSvcrRef/NtryRef, MT940 bank reference). */
  externalId?: string
  /** Category as the file names it (QIF L), when any. */
  category?: string
  /** The other account of a transfer between the company's own accounts (QIF `L[Account]`). */
  transferAccount?: string
  /** 1-based line of the file where the entry starts, for messages. */
  line?: number
}

export interface ParsedStatement {
  /** Normalised account identity the file names (IBAN, or bank id + account id), when any. */
  accountHint?: string
  /** ISO 4217 code of the statement. */
  currency?: string
  /** Opening balance in minor units (CAMT OPBD/PRCD, MT940 :60F:/:60M:, OFX none), when given. */
  openingBalance?: number
  /** Closing balance in minor units (CAMT CLBD, MT940 :62F:/:62M:, OFX LEDGERBAL), when given. */
  closingBalance?: number
  /** Period the statement covers (ISO dates), from the file or from its lines. */
  periodStart?: string
  periodEnd?: string
  transactions: ImportedTransaction[]
  /**
   * Transaction lines of this statement that could not be read, each with its line and why. Not
   * warnings: the statement is not whole without them (balance, turnover and unbooked lines are
   * no transactions and never listed here).
   */
  unreadable?: UnreadableLine[]
}

export interface UnreadableLine {
  /** 1-based line of the file, when known. */
  line?: number
  reason: string
}

export interface ParseOptions {
  /** Declared encoding (otherwise detected: BOM, XML declaration, strict UTF-8, else windows-1252). */
  encoding?: string
  /** The date format the user gives (`DD/MM/YY`, `YY/MM/DD`) for formats whose dates have no fixed layout (QIF). */
  dateFormat?: string
  /** Amounts use a decimal comma, for formats that do not say (QIF); otherwise decided over the file. */
  decimalComma?: boolean
  /** Currency to assume where the file states none (QIF): the bank account's. */
  defaultCurrency?: string
}

export interface ParseResult {
  format: StatementFormat
  /** Every statement (account, or statement period) the file holds, in file order. */
  statements: ParsedStatement[]
  /**
   * What the reader noticed and how it read it (a rule applied to a quirk, a choice it made, lines
   * that are no transactions), with line numbers; the lines it could not read are each statement's `unreadable`.
   */
  warnings: string[]
}

export interface StatementParser {
  format: StatementFormat
  /** Does this look like my format? (content first; the file name only as a tie-breaker) */
  sniff(bytes: Uint8Array, fileName: string): boolean
  /** Throws `StatementParseError` when the file cannot be used at all (malformed, truncated). */
  parse(bytes: Uint8Array, opts: ParseOptions): ParseResult
}

/** The file as a whole is unusable; `message` says what is wrong and where (line number). */
export class StatementParseError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line ? `${message} (line ${line})` : message)
    this.name = 'StatementParseError'
  }
}
