/**
 * From an uploaded file's bytes to statement lines: OFX/QFX, QIF, CAMT.053 and MT940 through the
 * statement parsers, CSV through the column mapping of `finctl tx import`. Pure: bytes in, plain
 * objects out (they cross to and from a worker thread), no database. The parsers are loaded when
 * a file is parsed, not with the server core (every embedded CLI command opens the core).
 */
import type { Role } from '../../import/mapping.js'
import type { ImportedTransaction, ParsedStatement, StatementFormat } from '../../import/statements/types.js'
import type { StatementFormatName } from './schemas.js'

export interface UploadOptions {
  format?: StatementFormatName
  dateFormat?: string
  encoding?: string
  delimiter?: string
  /** Which account of a file that holds several: its number as the file writes it, or its end. */
  accountNumber?: string
  map?: Array<[Role, string]>
  where?: Array<[string, string]>
  decimalComma?: boolean
  skipLines?: number
  noHeader?: boolean
  /** CSV: read by detection alone, not as a bank layout. */
  noLayout?: boolean
  invertSign?: boolean
  /** CSV: a running balance in the file still chooses the reading, but a line that breaks it is no refusal. */
  noBalanceCheck?: boolean
}

/** One line of a statement, ready to become a transaction (amounts in minor units). */
export interface StatementLine {
  date: string
  amountMinor: number
  currency: string
  description: string
  /** The bank's text as the file writes it (line breaks, runs of spaces), when it differs from `description`. */
  originalDescription?: string
  merchant?: string
  category?: string
  /** A transfer between the company's own accounts (QIF `L[Account]`): accounting and cash-flow category `transfer`. */
  transfer?: true
  /** The bank's own id of the line (FITID, AcctSvcrRef, MT940 reference). */
  externalId?: string
  /** CSV: the bank reference column, part of the line's identity when there is no id. */
  reference?: string
  /** 1-based line of the file, for messages. */
  line?: number
}

/** What a statement of a file says of itself (account, currency, balances, period): the parser's statement without its transactions. */
export type StatementHeader = Omit<ParsedStatement, 'transactions'>

/** One statement (an account, or one period of an account) of a file, its lines ready to become transactions. */
export type StatementPart = StatementHeader & { lines: StatementLine[] }

export interface ParsedUpload {
  format: StatementFormatName
  parts: StatementPart[]
  warnings: string[]
}

/** What the parse needs to know of the bank account. */
export interface ParseTarget {
  fileName: string
  format: StatementFormatName
  /** The account's currency: lines that name none are in it. */
  currency: string
  exponent: number
  /** A card or a loan: a running balance in a CSV file may be written as owed. */
  liability?: boolean
}

export class StatementFileError extends Error {
  override name = 'StatementFileError'
  /** The lines of the file the error is about, one message each (`line 12: ...`): the failed statement's warnings. */
  constructor(
    message: string,
    readonly lines: string[] = [],
  ) {
    super(message)
  }
}

const MAX_DESCRIPTION = 1000

function squash(text: string | undefined): string | undefined {
  const t = text
    ?.replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return t ? t : undefined
}

/**
 * Which of a line's payee and free text make its description: both when they differ, the longer
 * one when one starts with the other (OFX cuts NAME at 32 characters and MEMO holds it all).
 */
function describedBy(p: string | undefined, m: string | undefined): 'payee' | 'memo' | 'both' | undefined {
  if (p && m) {
    const [lp, lm] = [p.toLowerCase(), m.toLowerCase()]
    return lm.startsWith(lp) ? 'memo' : lp.startsWith(lm) ? 'payee' : 'both'
  }
  return p ? 'payee' : m ? 'memo' : undefined
}

const joined = (by: 'payee' | 'memo' | 'both', p: string, m: string) => (by === 'both' ? `${p} / ${m}` : by === 'payee' ? p : m)

/** A transaction's description from a line's payee and free text (see describedBy). */
export function describe(payee: string | undefined, memo: string | undefined, fallback = 'bank statement line'): string {
  const p = squash(payee)
  const m = squash(memo)
  const by = describedBy(p, m)
  return (by ? joined(by, p!, m!) : fallback).slice(0, MAX_DESCRIPTION)
}

/** The description with the free text as the bank wrote it, when the free text is part of it. */
function originalOf(t: ImportedTransaction): string | undefined {
  const p = squash(t.payee)
  const by = describedBy(p, squash(t.memo))
  if (!t.rawMemo || (by !== 'memo' && by !== 'both')) return undefined
  return joined(by, p!, t.rawMemo).slice(0, MAX_DESCRIPTION)
}

/** The category of a transfer line, whose description names the other account. */
const TRANSFER_CATEGORY = 'Transfer'

function transferNote(t: ImportedTransaction): string | undefined {
  return t.transferAccount && `Transfer ${t.amountMinor < 0 ? 'to' : 'from'} ${t.transferAccount}`
}

function fromImported(t: ImportedTransaction): StatementLine {
  const transfer = transferNote(t)
  const line: StatementLine = {
    date: t.date,
    amountMinor: t.amountMinor,
    currency: t.currency,
    description: describe(t.payee, [squash(t.memo), transfer].filter(Boolean).join(' / '), squash(t.category)),
  }
  const original = originalOf(t)
  if (original && original !== line.description) line.originalDescription = original
  const merchant = squash(t.payee)
  if (merchant) line.merchant = merchant.slice(0, 200)
  const category = transfer ? TRANSFER_CATEGORY : squash(t.category)
  if (category) line.category = category.slice(0, 100)
  if (transfer) line.transfer = true
  if (t.externalId?.trim()) line.externalId = t.externalId.trim()
  if (t.line !== undefined) line.line = t.line
  return line
}

/** Parse an uploaded file. Throws StatementFileError (with a line number where known) when it is unusable. */
export async function parseUpload(bytes: Uint8Array, target: ParseTarget, o: UploadOptions): Promise<ParsedUpload> {
  if (target.format === 'csv') return parseCsv(bytes, target, o)
  const { parseStatement, StatementParseError } = await import('../../import/statements/index.js')
  try {
    const r = parseStatement(bytes, {
      format: target.format as StatementFormat,
      fileName: target.fileName,
      encoding: o.encoding,
      // Upload options apply to the formats that have them (checked at upload: options.ts).
      dateFormat: o.dateFormat,
      decimalComma: o.decimalComma,
      defaultCurrency: target.currency,
    })
    // A 0 on a closing or balance line is no movement, as in a CSV import (zero-rows.ts); any other 0 is a booking.
    const { zeroRowReason } = await import('../../import/zero-rows.js')
    const warnings = [...r.warnings]
    const movement = (t: ImportedTransaction) => {
      const why = t.amountMinor === 0 ? zeroRowReason([t.memo ?? '', t.payee ?? '']) : undefined
      if (why) warnings.push(`${t.line === undefined ? `the line of ${t.date}` : `line ${t.line}`}: ${why}, skipped`)
      return !why
    }
    const parts = r.statements.map(
      ({ transactions, ...header }): StatementPart => ({ ...header, lines: transactions.filter(movement).map(fromImported) }),
    )
    return { format: target.format, parts, warnings }
  } catch (e) {
    if (e instanceof StatementParseError) throw new StatementFileError(e.message)
    if (e instanceof RangeError || e instanceof TypeError) throw new StatementFileError(`the file cannot be read: ${e.message}`)
    throw e
  }
}

async function parseCsv(bytes: Uint8Array, target: ParseTarget, o: UploadOptions): Promise<ParsedUpload> {
  const [{ ImportError, planImportBytes }, { RowMapper }, { readRecordsBytes }, { CsvError }, { accountKey, isAccountNumber }, { cell }] =
    await Promise.all([
      import('../../import/plan.js'),
      import('../../import/map-rows.js'),
      import('../../import/read-rows.js'),
      import('csv-parse'),
      import('../../import/own-account.js'),
      import('../../import/row-text.js'),
    ])
  const { balanceNote, balanceRefusal } = await import('../../import/balance-check.js')
  const opts = {
    encoding: o.encoding,
    delimiter: o.delimiter,
    dateFormat: o.dateFormat,
    decimalComma: o.decimalComma,
    skipLines: o.skipLines,
    noHeader: o.noHeader,
    ...(o.noLayout ? { layouts: false as const } : {}),
    map: o.map,
    where: o.where,
    invertSign: o.invertSign,
    ...(o.noBalanceCheck ? { noBalanceCheck: true } : {}),
    ...(target.liability ? { liability: true } : {}),
  }
  try {
    const plan = await planImportBytes(bytes, opts)
    const rows = new RowMapper(plan, { accountId: 'statement', currency: target.currency })
    // A currency the file states (its header, a preamble line) is the statement's: checked against the account's.
    const currency = plan.currency.stated ? { currency: plan.currency.stated.code } : {}
    // A file of several accounts' rows (an account column) is one part per account, chosen as any statement's are (select.ts).
    const parts = new Map<string, StatementPart>()
    const partOf = (fields: string[]): StatementPart => {
      const number = plan.map.account === undefined ? '' : cell(fields, plan.map.account)
      const key = isAccountNumber(number) ? accountKey(number) : ''
      const found = parts.get(key)
      if (found) return found
      const part: StatementPart = { lines: [], ...currency, ...(key ? { accountHint: number } : {}) }
      parts.set(key, part)
      return part
    }
    for await (const rec of readRecordsBytes(bytes, plan.layout)) {
      const r = rows.map(rec)
      if (!r) continue
      const part = partOf(rec.fields)
      if (!r.ok) {
        part.unreadable ??= []
        part.unreadable.push({ line: r.line, reason: r.reason })
        continue
      }
      const q = r.request
      const line: StatementLine = {
        date: q.transaction_date,
        amountMinor: r.minor,
        currency: q.currency_code ?? target.currency,
        description: q.description,
        line: r.line,
      }
      if (q.original_description) line.originalDescription = q.original_description
      if (q.merchant_name) line.merchant = q.merchant_name
      if (q.category) line.category = q.category
      const ref =
        plan.map.reference === undefined
          ? ''
          : (rec.fields[plan.map.reference < 0 ? rec.fields.length + plan.map.reference : plan.map.reference] ?? '').trim()
      if (ref) line.reference = ref
      part.lines.push(line)
    }
    const warnings = rows.skipped.map((s) => `line ${s.line}: ${s.reason}`)
    // A running balance in the file: a line that breaks it fails the statement whole; one that follows
    // it on every line gives the statement its opening and closing balances (balance-check.ts).
    const outcome = rows.balanceResult()
    const broken = balanceRefusal(plan, outcome)
    if (broken) throw new StatementFileError(broken)
    const checked = balanceNote(plan, outcome)
    if (checked) warnings.unshift(checked)
    const list = parts.size ? [...parts.values()] : [{ lines: [], ...currency }]
    if (outcome?.ends && list.length === 1 && plan.balance?.check) {
      list[0].openingBalance = outcome.ends.opening
      list[0].closingBalance = outcome.ends.closing
    }
    return { format: 'csv', parts: list, warnings }
  } catch (e) {
    if (e instanceof ImportError) throw new StatementFileError(e.message)
    // csv-parse's own refusals (a quote never closed, ...): the file, not a bug.
    if (e instanceof CsvError) throw new StatementFileError(`the CSV file cannot be read: ${e.message}`)
    throw e
  }
}
