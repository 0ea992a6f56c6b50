/**
 * Bank statements: upload (checked at once, then processed off the request path by
 * jobs.ts), read, list, and the transactions of a statement.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { dateFormatProblem } from '../../import/dates.js'
import { normalizeEncoding } from '../../import/decode.js'
import { ROLES, roleNamed, splitPair, type Role } from '../../import/mapping.js'
import type { BankAccountRow, BankStatementRow, Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { uuidv7 } from '../../kernel/ids.js'
import { thisWorker, workerGone } from '../../kernel/process.js'
import { minorToNumber, parseRate } from '../../kernel/money.js'
import { STATEMENT_FORMATS } from '../../kernel/statement-formats.js'
import type { UploadOptions } from './parse.js'
import { inapplicableOptions } from './options.js'
import {
  MAX_STATEMENT_FILE,
  type Statement,
  type StatementFormatName,
  type StatementListQuery,
  type StatementTransactionsQuery,
} from './schemas.js'
import { listTransactions, type Page } from '../transactions/queries.js'
import type { Transaction } from '../schemas.js'
import { baseCurrency } from '../accounts/companies.js'
import { eventRow, recordEvents } from '../events.js'
import { keepStatementFile, keptStatementFiles, notKeptNote } from '../statement-files.js'

/** An upload as the route hands it over: the file's bytes and the options, not yet checked. */
export interface StatementUpload {
  /** Keep it pending for `imports apply` (statements upload --review: imports/statement-review.ts). */
  review?: boolean
  bankAccountId: string
  fileName: string
  format?: StatementFormatName
  bytes: Uint8Array
  exchangeRate?: string | number
  dateFormat?: string
  encoding?: string
  delimiter?: string
  accountNumber?: string
  map?: string[]
  where?: string[]
  decimalComma?: boolean
  skipLines?: number
  noHeader?: boolean
  noLayout?: boolean
  invertSign?: boolean
  noBalanceCheck?: boolean
}

/** Everything the processing needs, decided at upload time. */
export interface StatementJob {
  statementId: string
  actor: Actor
  account: BankAccountRow
  baseCurrency: string
  /**
   * Rate from the account's currency to the base currency: "1" when they are the same, the one the
   * upload gave, or undefined: each line takes the company's rate of its date (finctl rates).
   */
  rate: string | undefined
  format: StatementFormatName
  fileName: string
  bytes: Uint8Array
  options: UploadOptions
}

function pairs(list: string[] | undefined, field: string): Array<[string, string]> {
  return (list ?? []).map((item, i) => {
    const pair = splitPair(item)
    if (!pair) throw validation(`${field}.${i}`, `must be name=value (got "${item}")`)
    return pair
  })
}

/**
 * The rate of a statement's lines to the base currency: "1" when the account is in it, the upload's
 * `exchange_rate` when it gives one (a 400 naming exchange_rate when that is no rate), or undefined:
 * each line converts at the company's rate of its date. The preview (`statements upload --preview`)
 * checks a given rate with the same rule.
 */
export function statementRate(accountCurrency: string, base: string, exchangeRate: string | number | undefined): string | undefined {
  if (exchangeRate !== undefined) {
    const r = parseRate(exchangeRate)
    if (!r) throw validation('exchange_rate', 'must be a positive decimal number')
    if (accountCurrency === base && r !== '1') throw validation('exchange_rate', `must be 1: the account is in the base currency ${base}`)
    return r
  }
  // An account in another currency: each line converts at the company's rate of its date (rates table).
  return accountCurrency === base ? '1' : undefined
}

/** Check the reading options now, so that a typo is a 400 rather than a failed statement. */
export function uploadOptions(u: StatementUpload): UploadOptions {
  const map = pairs(u.map, 'map').map(([field, column], i): [Role, string] => {
    const role = roleNamed(field)
    if (!role) throw validation(`map.${i}`, `unknown field "${field}": use one of ${ROLES.join(', ')}`)
    return [role, column]
  })
  if (u.dateFormat !== undefined) {
    const problem = dateFormatProblem(u.dateFormat)
    if (problem) throw validation('date_format', problem)
  }
  if (u.encoding !== undefined) {
    try {
      normalizeEncoding(u.encoding)
    } catch (e) {
      throw validation('encoding', (e as Error).message)
    }
  }
  if (u.delimiter !== undefined && ![',', ';', '|', '\t', '\\t', 'tab'].includes(u.delimiter))
    throw validation('delimiter', 'must be one of , ; | or tab')
  return {
    format: u.format,
    dateFormat: u.dateFormat,
    encoding: u.encoding,
    delimiter: u.delimiter,
    accountNumber: u.accountNumber?.trim() || undefined,
    map: map.length ? map : undefined,
    where: u.where?.length ? pairs(u.where, 'where') : undefined,
    decimalComma: u.decimalComma,
    skipLines: u.skipLines,
    noHeader: u.noHeader,
    noLayout: u.noLayout,
    invertSign: u.invertSign,
    noBalanceCheck: u.noBalanceCheck,
  }
}

export function toStatement(row: BankStatementRow): Statement {
  const money = (v: number | null) => (v === null ? null : minorToNumber(Number(v), row.currency_code))
  return {
    id: row.id,
    bank_account_id: row.bank_account_id,
    file_name: row.file_name,
    format: row.format as Statement['format'],
    file_sha256: row.file_sha256,
    file_size: Number(row.file_size),
    status: row.status as Statement['status'],
    period_start: row.period_start,
    period_end: row.period_end,
    opening_balance: money(row.opening_balance),
    closing_balance: money(row.closing_balance),
    currency_code: row.currency_code,
    balance_check: row.balance_check as Statement['balance_check'],
    line_count: Number(row.line_count),
    transaction_count: Number(row.transaction_count),
    duplicate_count: Number(row.duplicate_count),
    matched_count: Number(row.matched_count),
    error: row.error,
    warnings: JSON.parse(row.warnings) as string[],
    created_at: row.created_at,
    processed_at: row.processed_at,
  }
}

async function sameFile(db: Kysely<Db>, accountId: string, sha: string): Promise<BankStatementRow | undefined> {
  return db
    .selectFrom('bank_statements')
    .selectAll()
    .where('bank_account_id', '=', accountId)
    .where('file_sha256', '=', sha)
    .where('status', '!=', 'failed')
    .executeTakeFirst()
}

function alreadyUploaded(first: BankStatementRow): AppError {
  return new AppError(
    'conflict',
    `this file was uploaded to this bank account before: statement ${first.id} (${first.status}, ${first.created_at})`,
    {
      details: [{ path: 'file', message: `same file as statement ${first.id}` }],
    },
  )
}

/**
 * Check an upload and record its statement as `pending`. Returns the statement and the job that
 * processes it (jobs.ts). Same file for the same account again -> 409 naming the first.
 */
/** An upload checked as its statement would be (account, size, options, format, rate, a file not uploaded before); nothing written. */
export async function checkStatementUpload(
  store: Store,
  actor: Actor,
  u: StatementUpload,
  now: Date,
  running: (id: string) => boolean = () => false,
) {
  const account = await findBankAccount(store, actor.companyId, u.bankAccountId).catch((e: AppError) => {
    throw new AppError(e.code, 'bank account not found', { details: [{ path: 'bank_account_id', message: 'no such bank account' }] })
  })
  if (account.status === 'closed')
    throw new AppError('conflict', `bank account "${account.name}" is closed: reopen it before uploading statements`)
  if (u.bytes.length === 0) throw validation('file', 'is empty')
  if (u.bytes.length > MAX_STATEMENT_FILE)
    throw new AppError(
      'payload_too_large',
      `the statement file is ${u.bytes.length} bytes: at most 20 MiB (${MAX_STATEMENT_FILE} bytes) are accepted`,
    )
  const options = uploadOptions(u)
  const format = u.format ?? (await import('../../import/statements/index.js')).detectFormat(u.bytes, u.fileName)
  if (!format)
    throw validation(
      'format',
      `cannot tell the format of "${u.fileName}" from its content or name: give one of ${STATEMENT_FORMATS.join(', ')}`,
    )
  const refused = inapplicableOptions(format, options)
  if (refused.length)
    throw new AppError('validation_error', refused.map((p) => `${p.field}: ${p.message}`).join('; '), {
      details: refused.map((p) => ({ path: p.field, message: p.message })),
    })

  const base = await baseCurrency(store, actor.companyId)
  const rate = statementRate(account.currency_code, base, u.exchangeRate)

  const sha = createHash('sha256').update(u.bytes).digest('hex')
  const same = await sameFile(store.db, account.id, sha)
  // One cut off by a crash no longer holds its file: settled as failed, the file may come again.
  const [first] = same ? await settleStale(store, [same], now, running) : []
  if (first && first.status !== 'failed') throw alreadyUploaded(first)
  return { account, options, format, base, rate, sha }
}

export async function createStatement(
  store: Store,
  actor: Actor,
  u: StatementUpload,
  now: Date,
  running: (id: string) => boolean = () => false,
): Promise<{ statement: Statement; job: StatementJob }> {
  const { account, options, format, base, rate, sha } = await checkStatementUpload(store, actor, u, now, running)
  const ts = now.toISOString()
  const row: BankStatementRow = {
    id: uuidv7(now.getTime()),
    company_id: actor.companyId,
    bank_account_id: account.id,
    file_name: u.fileName,
    format,
    file_sha256: sha,
    file_size: u.bytes.length,
    currency_code: account.currency_code,
    status: 'pending',
    period_start: null,
    period_end: null,
    opening_balance: null,
    closing_balance: null,
    balance_check: null,
    line_count: 0,
    transaction_count: 0,
    duplicate_count: 0,
    matched_count: 0,
    error: null,
    warnings: '[]',
    created_by: actorId(actor),
    created_at: ts,
    updated_at: ts,
    processed_at: null,
    worker: thisWorker(),
  }
  try {
    await store.writeTransaction(async (trx) => {
      await trx.insertInto('bank_statements').values(row).execute()
      await keepStatementFile(trx, actor.companyId, sha, u.bytes, now)
      await recordEvents(store, trx, [eventRow(actor, 'statement.uploaded', row.id, toStatement(row), now)])
    })
  } catch (err) {
    // Two uploads of one file at once: the unique index lets one in.
    const winner = await sameFile(store.db, account.id, sha)
    if (winner) throw alreadyUploaded(winner)
    throw err
  }
  return {
    // Kept in the transaction that wrote the statement.
    statement: { ...toStatement(row), file_kept: true, file_note: null },
    job: {
      statementId: row.id,
      actor,
      account,
      baseCurrency: base,
      rate,
      format,
      fileName: u.fileName,
      bytes: u.bytes,
      options: { ...options, format },
    },
  }
}

// ---- reading -------------------------------------------------------------------------------

/**
 * A statement left pending or processing this long without a heartbeat was cut off by a stop (the
 * lease); at once when the process named in `worker` is one of this host's that is gone.
 */
export const STALE_AFTER_MS = 2 * 60_000
export const STALE_ERROR =
  'processing stopped before it finished (the service stopped or crashed): nothing of this statement was imported; upload the file again'

/**
 * Statements whose processing was cut off (a crash, kill -9) are not resumed: the job decided at
 * upload went with its process. Once their heartbeat is older than STALE_AFTER_MS they are marked
 * failed, which also frees their file for a new upload. `running` tells the ones this process is working on.
 */
async function settleStale(
  store: Store,
  rows: BankStatementRow[],
  now: Date,
  running: (id: string) => boolean,
): Promise<BankStatementRow[]> {
  const limit = new Date(now.getTime() - STALE_AFTER_MS).toISOString()
  const out: BankStatementRow[] = []
  for (const row of rows) {
    const cutOff = row.updated_at < limit || workerGone(row.worker)
    if ((row.status === 'pending' || row.status === 'processing') && cutOff && !running(row.id)) {
      const ts = now.toISOString()
      const failed = { ...row, status: 'failed', error: STALE_ERROR, updated_at: ts, processed_at: ts }
      // Marked failed with its statement.failed event (docs/events.md), by whichever reader saw it first.
      const r = await store.writeTransaction(async (trx) => {
        const u = await trx
          .updateTable('bank_statements')
          .set({ status: 'failed', error: STALE_ERROR, updated_at: ts, processed_at: ts })
          .where('id', '=', row.id)
          .where('updated_at', '=', row.updated_at)
          .where('status', 'in', ['pending', 'processing'])
          .executeTakeFirst()
        if (Number(u.numUpdatedRows) === 1)
          await recordEvents(store, trx, [
            eventRow('system:housekeeping', 'statement.failed', row.id, toStatement(failed), now, row.company_id),
          ])
        return u
      })
      const fresh =
        Number(r.numUpdatedRows) === 1
          ? failed
          : await store.db.selectFrom('bank_statements').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
      out.push(fresh)
    } else out.push(row)
  }
  return out
}

export async function findStatement(store: Store, companyId: string, id: string): Promise<BankStatementRow> {
  const row = await store.db
    .selectFrom('bank_statements')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .executeTakeFirst()
  if (!row) throw notFound('statement')
  return row
}

export async function getStatement(
  store: Store,
  companyId: string,
  id: string,
  now: Date,
  running: (id: string) => boolean = () => false,
): Promise<Statement> {
  const [row] = await settleStale(store, [await findStatement(store, companyId, id)], now, running)
  return (await withFileKept(store, companyId, [row]))[0]
}

/** The statements with whether their original is kept, and why not (docs/uploading-statements.md, "The original file"). */
async function withFileKept(store: Store, companyId: string, rows: BankStatementRow[]): Promise<Statement[]> {
  const kept = await keptStatementFiles(
    store.db,
    companyId,
    rows.map((r) => r.file_sha256),
  )
  return rows.map((r) => {
    const k = kept.has(r.file_sha256)
    return { ...toStatement(r), file_kept: k, file_note: k ? null : notKeptNote(r.created_at) }
  })
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError('validation_error', 'invalid cursor: pass the next_cursor of the previous page unchanged', {
      details: [{ path: 'cursor', message: 'is not a cursor of this list' }],
    })
  }
  return id
}

/** Newest first, keyset pages on the (time-ordered) id. */
export async function listStatements(
  store: Store,
  companyId: string,
  q: StatementListQuery,
  now: Date,
  running: (id: string) => boolean = () => false,
): Promise<Page<Statement>> {
  const limit = q.limit ?? 50
  let filtered = store.db.selectFrom('bank_statements').where('company_id', '=', companyId)
  if (q.bank_account_id) filtered = filtered.where('bank_account_id', '=', q.bank_account_id)
  if (q.status) filtered = filtered.where('status', '=', q.status)
  let page = filtered.selectAll()
  if (q.cursor) page = page.where('id', '<', decodeCursor(q.cursor))
  const [rows, total] = await Promise.all([
    page
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute(),
    q.include_total ? filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : undefined,
  ])
  const hasMore = rows.length > limit
  const pageRows = await settleStale(store, hasMore ? rows.slice(0, limit) : rows, now, running)
  const last = pageRows[pageRows.length - 1]
  return {
    data: await withFileKept(store, companyId, pageRows),
    pagination: {
      limit,
      next_cursor: hasMore && last ? Buffer.from(last.id).toString('base64url') : null,
      has_more: hasMore,
      ...(total ? { total: Number(total.n) } : {}),
    },
  }
}

/** The transactions created from or reconciled with a statement (the filters of GET /transactions). */
export async function statementTransactions(
  store: Store,
  companyId: string,
  id: string,
  q: StatementTransactionsQuery,
): Promise<Page<Transaction>> {
  await findStatement(store, companyId, id)
  return listTransactions(store, companyId, { ...q, statement_id: id })
}
