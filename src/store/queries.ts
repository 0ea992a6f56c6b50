/**
 * Whole reads the domain cannot say through kysely's builder (a subquery per column, an index named
 * in FROM), the same on both dialects but for what `DialectSql` writes. The domain calls them by name.
 */
import { type Kysely, sql } from 'kysely'
import type { Db, StoredTransactionRow } from './schema.js'
import type { DialectSql } from './store.js'

/** The newest request record's id and the newest event's seq (null where there is none), in one read. */
export async function newestRecordIds(db: Kysely<Db>): Promise<{ r: number | string | null; e: number | string | null }> {
  const r = await sql<{ r: number | string | null; e: number | string | null }>`
    SELECT (SELECT max(id) FROM api_requests) AS r, (SELECT max(seq) FROM events) AS e`.execute(db)
  return r.rows[0] ?? { r: null, e: null }
}

/**
 * An account's transactions from statement lines not yet paired with an imported row, not void, dated
 * from..to, oldest first: read through the partial index of statement lines (account, statement_ref),
 * which SQLite's planner must be told (docs/performance.md). `lock`: locked for update where rows lock.
 */
export async function unpairedStatementRows(
  db: Kysely<Db>,
  dialect: DialectSql,
  o: { account: number; from: string; to: string; limit?: number; lock?: boolean },
): Promise<StoredTransactionRow[]> {
  const r = await sql<StoredTransactionRow>`SELECT * FROM transactions ${dialect.indexedBy('transactions_statement_ref')}
    WHERE account_key = ${o.account} AND statement_ref IS NOT NULL AND import_ref IS NULL AND status <> 'void'
      AND transaction_date >= ${o.from} AND transaction_date <= ${o.to}
    ORDER BY created_at, seq ${o.limit ? sql`LIMIT ${o.limit}` : sql``}
    ${o.lock && dialect.rowLocks ? sql`FOR UPDATE` : sql``}`.execute(db)
  return r.rows
}
