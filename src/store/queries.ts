/**
 * Whole reads the domain cannot say through kysely's builder (a subquery per column, an index named
 * in FROM), the same on both dialects but for what `DialectSql` writes. The domain calls them by name.
 */
import { type Kysely, sql } from 'kysely'
import type { Db, StoredTransactionRow } from './schema.js'
import type { DialectSql } from './dialect-adapter.js'

/** A key by its hash (`match`: the dialect's test of `k.key_hash`) with its creator's role and disabling now (store.ts, KeyWithCreator). */
export const keyWithCreatorSql = (match: string) =>
  'SELECT k.*, u.role AS creator_role, u.disabled_at AS creator_disabled_at FROM api_keys k' +
  ` LEFT JOIN users u ON u.id = k.created_by AND u.company_id = k.company_id WHERE k.key_hash ${match}`

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

/** One part of a key's usage statistics (`keyUsageParts`). */
export interface UsagePart {
  /** 0: a kept total per endpoint and status; 1: a count of the last day; 2: one of the newest records. */
  part: number | string
  endpoint: string | null
  method: string | null
  status_code: number | string | null
  n: number | string | null
  ms: number | string | null
  at: string | null
  id: number | string | null
}

/**
 * A key's usage in one statement, so that one snapshot answers every figure (on PostgreSQL, one
 * round trip): the kept totals per endpoint and status, the last day as its whole ten-minute periods
 * from `firstPeriod` plus the records from `since` to `firstWhole`, and the last `recent` records
 * written. Those are a range of (key_id, seq) ending at the key's usage_count, with no ORDER BY and
 * LIMIT: without statistics PostgreSQL read and sorted all of a key's records for that (migration 0043).
 */
export async function keyUsageParts(db: Kysely<Db>, keyId: string, o: UsagePartsOptions): Promise<UsagePart[]> {
  return (await keyUsagePartsSql(keyId, o).execute(db)).rows
}

export interface UsagePartsOptions {
  since: string
  firstPeriod: string
  firstWhole: string
  recent: number
}

/** The statement of `keyUsageParts` (exported for its test, which reads PostgreSQL's plan of it). */
export function keyUsagePartsSql(keyId: string, o: UsagePartsOptions) {
  return sql<UsagePart>`
    SELECT 0 AS part, endpoint, NULL AS method, status_code, requests AS n, response_ms AS ms, last_at AS at, 0 AS id
      FROM api_key_usage WHERE key_id = ${keyId}
    UNION ALL
    SELECT 1, NULL, NULL, NULL, sum(requests), NULL, NULL, 0
      FROM api_key_usage_periods WHERE key_id = ${keyId} AND period >= ${o.firstPeriod}
    UNION ALL
    SELECT 1, NULL, NULL, NULL, count(*), NULL, NULL, 0
      FROM api_requests WHERE key_id = ${keyId} AND created_at >= ${o.since} AND created_at < ${o.firstWhole}
    UNION ALL
    SELECT 2, endpoint, method, status_code, 1, response_time_ms, created_at, id
      FROM api_requests WHERE key_id = ${keyId}
        AND seq > (SELECT usage_count FROM api_keys WHERE id = ${keyId}) - ${o.recent}
        AND seq <= (SELECT usage_count FROM api_keys WHERE id = ${keyId})`
}
