/**
 * The store interface the core works against. Ordinary queries use `db` (kysely) and run the
 * same on both dialects; the hot paths below (one per request, or per row in bulk) are written
 * per dialect: prepared statements on SQLite, multi-row statements on PostgreSQL.
 */
import type { Kysely } from 'kysely'
import type { ApiKeyRow, BankAccountRow, Db, NewApiRequestRow } from './schema.js'
import type { NewTransactionRow, TransactionCodec } from './transaction-codec.js'

/** The two databases a store runs on. */
export type Dialect = 'sqlite' | 'postgres'

export interface RateLimitInput {
  keyId: string
  minuteWindow: number
  dayWindow: number
  perMinute: number
  perDay: number
}

export interface RateLimitResult {
  allowed: boolean
  minuteCount: number
  dayCount: number
}

export interface HotPaths {
  findKeyByHash(hash: string): Promise<ApiKeyRow | undefined>
  /** A bank account of a company (every create looks one up). */
  findBankAccount(companyId: string, id: string): Promise<BankAccountRow | undefined>
  /** Count one request against both windows of a key, atomically, only if both have room. */
  takeRateLimit(input: RateLimitInput): Promise<RateLimitResult>
  /** Append usage records and bring each key's usage_count and last_used_at in step. */
  insertApiRequests(rows: NewApiRequestRow[]): Promise<void>
  /**
   * Insert transactions (each says who created it and how: created_by, created_via) in one
   * database transaction. A row whose import_ref already exists for its account is left out;
   * returns the ids of the rows inserted. Called outside any open transaction (it prepares the
   * creators' actor keys first).
   */
  insertTransactions(rows: NewTransactionRow[], o?: InsertOptions): Promise<Set<string>>
  /** A bulk load's end: build again what this process set aside for it (SQLite); refresh the table's statistics (PostgreSQL). */
  endBulkLoad(): Promise<void>
}

export interface InsertOptions {
  /**
   * Rows the caller announces it is about to send in batches (`Prefer: bulk-load=N`): on SQLite a
   * large enough load sets indexes aside until it ends (sqlite-bulk-load.ts). A hint: nothing
   * else changes, and PostgreSQL ignores it.
   */
  bulkRows?: number
  /**
   * Filled, for rows left out because their account holds their import_ref, with the id of the
   * transaction that holds it (`account_key NUL import_ref` -> id) where the insert found it without
   * a lookup (a bulk load on SQLite); the caller looks up the others (refKey in transaction-codec.ts).
   */
  existing?: Map<string, string>
}

export interface Store {
  readonly dialect: Dialect
  readonly db: Kysely<Db>
  readonly hot: HotPaths
  /** Transactions as the domain reads and writes them, and as they are stored (transaction-codec.ts). */
  readonly tx: TransactionCodec
  /** A human description of where the data lives, never with a password. */
  readonly location: string
  /**
   * A read-modify-write transaction. SQLite: BEGIN IMMEDIATE (takes the write lock first, so
   * processes wait for each other instead of failing); PostgreSQL: lock the rows you read with
   * `forUpdate()` (only there: `if (store.dialect === 'postgres') q = q.forUpdate()`). Inside `fn`,
   * use only `trx`.
   */
  writeTransaction<T>(fn: (trx: Kysely<Db>) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** SQL for the atomic rate-limit take, shared by both dialects (they differ only in MAX). */
export function rateLimitSql(dialect: Dialect, param: (i: number) => string): string {
  const max = dialect === 'postgres' ? 'GREATEST' : 'max'
  const [k, mw, dw, ml, dl] = [1, 2, 3, 4, 5].map(param)
  // Old values are seen by every SET expression (both dialects), so `room` is computed once per row.
  // A window from a slower clock counts against the newer window instead of resetting it.
  const minuteUsed = `(CASE WHEN ${mw} <= rate_limit_counters.minute_window THEN rate_limit_counters.minute_count ELSE 0 END)`
  const dayUsed = `(CASE WHEN ${dw} <= rate_limit_counters.day_window THEN rate_limit_counters.day_count ELSE 0 END)`
  const room = `(${minuteUsed} < ${ml} AND ${dayUsed} < ${dl})`
  const inc = `(CASE WHEN ${room} THEN 1 ELSE 0 END)`
  return `INSERT INTO rate_limit_counters (key_id, minute_window, minute_count, day_window, day_count, allowed)
VALUES (${k}, ${mw}, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END, ${dw}, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END)
ON CONFLICT (key_id) DO UPDATE SET
  minute_count = ${minuteUsed} + ${inc},
  minute_window = ${max}(rate_limit_counters.minute_window, ${mw}),
  day_count = ${dayUsed} + ${inc},
  day_window = ${max}(rate_limit_counters.day_window, ${dw}),
  allowed = ${inc}
RETURNING allowed, minute_count, day_count`
}
