/**
 * The import's map stage: `RowMapper` turns each record, by the plan alone (plan.ts), into a
 * create-transaction draft with a stable identity for exactly-once imports, a refusal naming why,
 * or nothing (a line that is no transaction, counted in `skipped`).
 */
import { hash } from 'node:crypto'
import { parseLocaleAmount, type LocaleAmount } from './amount.js'
import type { CsvRecord } from './read-rows.js'
import type { ImportPlan } from './plan.js'
import { parseDate } from './dates.js'
import { OccurrenceCounter } from './occurrences.js'
import { markOf, markSide } from './marks.js'
import { debitCreditAmount, type ColumnSigns } from './debit-credit.js'
import type { TransactionDraft } from './draft.js'
import { RunningBalance } from './balance-rows.js'
import { zeroRowReason } from './zero-rows.js'
import { accountKey, isAccountNumber, isChosenAccount } from './own-account.js'
import {
  balanceOf,
  balanceReason,
  cell,
  DATE_LIKE,
  excludedReason,
  NO_DESCRIPTION,
  notTransaction,
  rawCell,
  recordTypeReason,
} from './row-text.js'
import { columnName } from './column-evidence.js'
import { ChainCheck, type ChainBreak } from './balance-chain.js'
import { balanceValue } from './money-columns.js'
import { formatMinor } from '../kernel/money.js'
import { currencyExponent, isCurrency } from '../kernel/currencies.js'

/** The description as a transaction shows it: markup line breaks and runs of white space made single spaces. */
function tidy(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The description cells that are not blank, joined with " / " and trimmed (one column: its cell, trimmed, without an array). */
function descriptionText(fields: string[], columns: number[]): string {
  if (columns.length === 1) return rawCell(fields, columns[0]).trim()
  return columns
    .map((i) => rawCell(fields, i))
    .filter((t) => t.trim() !== '')
    .join(' / ')
    .trim()
}

/** Where a file's running balance and its amounts part: the line, the balance it writes, and the one the amounts lead to. */
export interface BalanceBreak {
  line: number
  balance: string
  expected: string
  found: string
}

export type MappedRow =
  /** `minor`: the amount in minor units of the row's currency, `currency_code` of the request. */
  | { ok: true; line: number; request: TransactionDraft & { import_ref: string }; minor: number; reversal?: true }
  | { ok: false; line: number; reason: string; fields: string[] }

/**
 * Turns records into create requests. A row's identity is its account, date, amount, description
 * and the bank's own reference, plus its occurrence number among identical rows of this file:
 * two identical rows in one file are two transactions; the same row in a later download is the
 * same transaction, whatever the file is called.
 */
export class RowMapper {
  private readonly occurrences: OccurrenceCounter
  private readonly signs: ColumnSigns
  /** No --where: balance and turnover rows are found by the file's signals. */
  private readonly auto: boolean
  private readonly running = new RunningBalance()
  /** Lines after the header skipped as no transaction (no date, a balance, a turnover): how many, and the first of them. */
  skippedCount = 0
  readonly skipped: Array<{ line: number; reason: string }> = []
  /** Rows of amount 0 taken as bookings (zero-rows.ts), and the lines of the first of them. */
  zeroRows = 0
  readonly zeroLines: number[] = []
  /** The plan's running balance, followed row by row (balance-chain.ts). */
  private readonly chain?: ChainCheck
  private readonly balance = { rows: 0, balanced: 0, firstBreak: undefined as BalanceBreak | undefined }
  /** The decimals of the last row followed, to write a break's figures in. */
  private exponent = 2

  constructor(
    private readonly plan: ImportPlan,
    /** The account the rows go to, its currency, and the values set on every row (`--set`). */
    private readonly o: { accountId: string; currency: string; constants?: Partial<TransactionDraft> },
  ) {
    this.occurrences = new OccurrenceCounter(plan.dataRows)
    this.signs = plan.signs ?? { debit: 1, credit: 1 }
    this.auto = plan.where.length === 0
    if (plan.balance) this.chain = new ChainCheck([plan.balance.order], plan.balance.sense)
  }

  /** The rows the running balance was checked on, of the rows read, and the first where it broke. */
  balanceResult(): { rows: number; balanced: number; firstBreak?: BalanceBreak; ends?: { opening: number; closing: number } } | undefined {
    if (!this.chain) return undefined
    // A day still open is judged now: its rows may only stand in another order (balance-chain.ts).
    const before = this.chain.firstBreak
    this.chain.end()
    this.noteBreak(before)
    const { rows, balanced, firstBreak } = this.balance
    // The balances before and after the file, when every row showed one (a statement's opening and closing).
    const ends = balanced === rows && !firstBreak ? this.chain.ends() : undefined
    return { rows, balanced, ...(firstBreak ? { firstBreak } : {}), ...(ends ? { ends } : {}) }
  }

  /** One row into the running balance: its amount (undefined for a row refused), and its balance cell read with its currency's decimals. */
  private follow(rec: CsvRecord, minor: number | undefined, currency: string, day: string | undefined): void {
    const chain = this.chain
    if (!chain) return
    const m = this.plan.map
    const group = `${cell(rec.fields, m.currency_code).toUpperCase()}\u0000${cell(rec.fields, m.account)}`
    const exponent = isCurrency(currency) ? currencyExponent(currency) : 2
    const balance = balanceValue(cell(rec.fields, m.balance), this.plan.decimal, exponent)
    if (minor !== undefined) {
      this.balance.rows++
      if (balance !== undefined) this.balance.balanced++
    }
    const before = chain.firstBreak
    this.exponent = exponent
    chain.add(rec.line, minor, balance, group, day)
    this.noteBreak(before)
  }

  /** The chain's first break, in the file's words, when it is new since `before`. */
  private noteBreak(before: ChainBreak | undefined): void {
    const now = this.chain?.firstBreak
    if (before || !now || this.balance.firstBreak) return
    const e = this.exponent
    this.balance.firstBreak = {
      line: now.line,
      balance: formatMinor(now.found, e),
      expected: formatMinor(now.expected, e),
      found: formatMinor(now.found, e),
    }
  }

  /** The file has been read to its end: free what counting its rows took (the mapper maps no more). */
  close(): void {
    this.occurrences.release()
  }

  /** A row refused: why, its fields as the bank wrote them, and a word on its width when it is ragged. */
  private fail(rec: CsvRecord, reason: string): MappedRow {
    const { header } = this.plan
    const ragged = rec.fields.length !== header.length
    return {
      ok: false,
      line: rec.line,
      reason: ragged ? `${reason} (the row has ${rec.fields.length} fields, the header ${header.length})` : reason,
      fields: rec.fields,
    }
  }

  private skip(line: number, reason: string): undefined {
    this.skippedCount++
    if (this.skipped.length < 1000) this.skipped.push({ line, reason })
    return undefined
  }

  /** Why a row has no description: every column it could come from is empty. */
  private noDescription(): string {
    const columns = [...this.plan.map.description, ...this.plan.fallbacks].map((i) => `"${columnName(this.plan.header, i)}"`)
    const list = columns.length === 1 ? columns[0] : `${columns.slice(0, -1).join(', ')} and ${columns[columns.length - 1]}`
    return `no description: ${list} ${columns.length === 1 ? 'is' : 'are'} empty on this row`
  }

  /** A line after the header that `--where` keeps. */
  private inScope(rec: CsvRecord): boolean {
    const { plan } = this
    if (rec.line <= plan.headerLine || plan.where.some(([i, v]) => cell(rec.fields, i) !== v)) return false
    return plan.accountChoice === undefined || isChosenAccount(cell(rec.fields, plan.map.account), plan.accountChoice)
  }

  /** Why a row is of another account than the file's one (a file of several is refused before: own-account.ts). */
  private otherAccount(fields: string[]): string | undefined {
    const { accounts, accountChoice, map } = this.plan
    if (accountChoice !== undefined || accounts?.numbers.length !== 1) return undefined
    const text = cell(fields, map.account)
    if (!isAccountNumber(text) || accountKey(text) === accountKey(accounts.numbers[0].number)) return undefined
    return `a row of account ${text}, not ${accounts.numbers[0].number} as the rows before it: give --account-number to choose one`
  }

  /** The decimals of a row's currency (its currency column, else --set currency_code, else the account's). */
  private exponentOf(fields: string[]): number {
    const c = cell(fields, this.plan.map.currency_code).toUpperCase() || this.o.constants?.currency_code || this.o.currency
    return isCurrency(c) ? currencyExponent(c) : currencyExponent(this.o.currency)
  }

  /** A row's amount in minor units of its currency (`exponent` decimals), signed, reversals flagged. */
  private amount(fields: string[], exponent: number): { ok: true; minor: number; reversal: boolean } | { ok: false; reason: string } {
    const { plan } = this
    const m = plan.map
    let minor: number
    let reversal = false
    if (m.amount !== undefined) {
      const r = parseLocaleAmount(cell(fields, m.amount), plan.decimal, exponent)
      if (!r.ok) return { ok: false, reason: `amount ${r.message}` }
      minor = r.minor
      if (m.indicator !== undefined) {
        const mark = cell(fields, m.indicator)
        const given = plan.debitValues
        const side = given ? undefined : mark === '' ? plan.indicatorBlank : markSide(mark)
        const debit = given ? given.includes(markOf(mark)) : side === 'debit'
        const credit = given ? !debit : side === 'credit'
        if (!debit && !credit)
          return {
            ok: false,
            reason: `debit/credit indicator "${cell(fields, m.indicator)}" is neither a debit nor a credit mark (give --indicator-debit VALUE)`,
          }
        minor = debit ? -Math.abs(minor) : Math.abs(minor)
      }
    } else {
      const readAmount = (text: string): LocaleAmount => parseLocaleAmount(text, plan.decimal, exponent)
      const r = debitCreditAmount({ debit: cell(fields, m.debit), credit: cell(fields, m.credit) }, this.signs, readAmount)
      if (!r.ok) return r
      minor = r.minor
      reversal = r.reversal
    }
    if (plan.invertSign) minor = -minor
    // A fee beside the amount is money out on top of it (Revolut): the balance moves by the amount less the fee.
    const feeText = cell(fields, m.fee)
    if (feeText) {
      const fee = parseLocaleAmount(feeText, plan.decimal, exponent)
      if (!fee.ok) return { ok: false, reason: `fee ${fee.message}` }
      minor -= Math.abs(fee.minor)
    }
    return { ok: true, minor, reversal }
  }

  /** undefined for the header, preamble, filtered and non-transaction lines (the last counted in `skipped`). */
  map(rec: CsvRecord): MappedRow | undefined {
    const r = this.mapRow(rec)
    if (this.chain && r)
      this.follow(
        rec,
        r.ok ? r.minor : undefined,
        r.ok ? (r.request.currency_code ?? this.o.currency) : this.o.currency,
        r.ok ? r.request.transaction_date : undefined,
      )
    return r
  }

  private mapRow(rec: CsvRecord): MappedRow | undefined {
    const { plan, o } = this
    if (!this.inScope(rec)) return undefined
    const m = plan.map
    const dateText = cell(rec.fields, m.date)
    if (!DATE_LIKE.test(dateText, plan.dateFormat)) return this.skip(rec.line, notTransaction(rec.fields))
    const off = excludedReason(plan.exclude, plan.header, rec.fields)
    if (off) return this.skip(rec.line, off)
    const byText = this.auto ? balanceOf(rec.fields, m) : undefined
    const code = plan.recordType ? cell(rec.fields, plan.recordType.column) : undefined
    if (byText || (this.auto && plan.recordType && code !== plan.recordType.movement)) {
      // A balance named by its text starts the running sum; a bare record type may be a turnover, and does not.
      const amount = byText ? this.amount(rec.fields, this.exponentOf(rec.fields)) : undefined
      this.running.balanceSeen(byText?.kind, amount?.ok ? amount.minor : undefined)
      return this.skip(rec.line, byText ? balanceReason(byText) : recordTypeReason(code!, plan.recordType!))
    }
    const date = parseDate(dateText, plan.dateFormat)
    if (!date) return this.fail(rec, `date "${dateText}" does not fit ${plan.dateFormat.name}`)
    const other = this.otherAccount(rec.fields)
    if (other) return this.fail(rec, other)
    // A row's own currency (its currency column) wins over --set currency_code and the account's;
    // its amount is read with that currency's decimals (JPY 0, BHD 3, CLF 4), not the account's.
    const currencyText = cell(rec.fields, m.currency_code)
    const currency = currencyText.toUpperCase() || o.constants?.currency_code || o.currency
    if (!isCurrency(currency)) return this.fail(rec, `currency "${currencyText || currency}" is not an ISO 4217 currency code`)
    const exponent = currencyExponent(currency)
    const amount = this.amount(rec.fields, exponent)
    if (!amount.ok) return this.fail(rec, amount.reason)
    const { minor, reversal } = amount
    if (minor === 0 && this.auto) {
      const closing = zeroRowReason([...m.description, ...plan.fallbacks].map((i) => rawCell(rec.fields, i)))
      if (closing) return this.skip(rec.line, closing)
      this.zeroRows++
      if (this.zeroLines.length < 100) this.zeroLines.push(rec.line)
    }
    const balance = this.auto ? this.running.balanceRow(minor) : undefined
    if (balance) return this.skip(rec.line, balance)
    // The bank's text verbatim (line breaks, as \n, and runs of spaces) is the original description;
    // when its cells are empty, the first text column that is not (a fee row has no payee name).
    let text = descriptionText(rec.fields, m.description)
    for (let i = 0; !text && i < plan.fallbacks.length; i++) text = rawCell(rec.fields, plan.fallbacks[i]).trim()
    if (!text && m.description.length === 0 && plan.fallbacks.length === 0) text = NO_DESCRIPTION
    const original = text.replace(/\r\n?/g, '\n').slice(0, 1000)
    const description = tidy(text).slice(0, 1000)
    if (!description) return this.fail(rec, this.noDescription())
    const postedText = cell(rec.fields, m.posted_date)
    const posted = postedText ? parseDate(postedText, plan.dateFormat) : null
    const reference = cell(rec.fields, m.reference)
    const key = `${o.accountId}\u0000${date}\u0000${minor}\u0000${description.toLowerCase()}\u0000${reference}`
    // One call, as text: createHash().update().digest() crosses into C++ three times, and a Buffer
    // a row then its text cost more again. Its first 22 characters are 132 bits.
    const digest = hash('sha256', key, 'base64url')
    const n = this.occurrences.next(digest)
    // Built by assignment, in the order a spread of the constants and then these fields would give
    // (a --set field keeps its place): five conditional spreads made a throwaway object each, a row.
    const request = (o.constants ? { ...o.constants } : {}) as TransactionDraft & { import_ref: string }
    request.bank_account_id = o.accountId
    request.transaction_date = date
    request.description = description
    if (original !== description) request.original_description = original
    request.amount = formatMinor(minor, exponent)
    request.currency_code = currency
    if (posted) request.posted_date = posted
    const merchant = cell(rec.fields, m.merchant_name)
    if (merchant) request.merchant_name = merchant.slice(0, 200)
    const category = cell(rec.fields, m.category)
    if (category) request.category = category.slice(0, 100)
    // The date first: rows of a bank file (in date order) then land side by side in the unique index.
    request.import_ref = `${date.replaceAll('-', '')}.${digest.slice(0, 22)}.${n}`
    return reversal ? { ok: true, line: rec.line, request, minor, reversal: true } : { ok: true, line: rec.line, request, minor }
  }
}
