/** Usage records on PostgreSQL: one update a key, multi-row inserts, in one transaction. */
import { type Kysely, sql } from 'kysely'
import { numbered, usagePerGroup, usagePerKey, usagePerPeriod } from '../api-usage.js'
import type { Db, NewApiRequestRow } from '../schema.js'

/** The advisory lock that serializes writers of api_requests (any constant of our own). */
const REQUEST_LOG_LOCK = 510_022

export async function insertApiRequests(db: Kysely<Db>, rows: NewApiRequestRow[]): Promise<void> {
  if (rows.length === 0) return
  const perKey = usagePerKey(rows)
  await db.transaction().execute(async (trx) => {
    // One writer at a time, so that ids are committed in their order and a reader that follows the
    // ids (the request log's cursor, domain/api-keys/request-log.ts) never passes one still uncommitted.
    await sql`SELECT pg_advisory_xact_lock(${sql.lit(REQUEST_LOG_LOCK)})`.execute(trx)
    // Each key's count first: the records are numbered after it (seq, migration 0043). A login's
    // records (no api_keys row) are numbered after their highest.
    const before = new Map<string, number>()
    for (const [id, { n, last }] of perKey) {
      const r = await sql<{ seq: string | number }>`
        WITH bumped AS (
          UPDATE api_keys SET usage_count = usage_count + ${n},
            last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ${last} THEN ${last} ELSE last_used_at END
          WHERE id = ${id} RETURNING usage_count)
        SELECT coalesce((SELECT usage_count - ${n} FROM bumped), (SELECT max(seq) FROM api_requests WHERE key_id = ${id}), 0) AS seq`.execute(
        trx,
      )
      before.set(id, Number(r.rows[0].seq))
    }
    const numberedRows = numbered(rows, before)
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto('api_requests')
        .values(numberedRows.slice(i, i + 1000))
        .execute()
    // The totals and the periods in one statement (two tables, so the order of the two does not matter): one round trip.
    await trx
      .with('totals', (db) =>
        db
          .insertInto('api_key_usage')
          .values(usagePerGroup(rows))
          .onConflict((oc) =>
            oc.columns(['key_id', 'endpoint', 'status_code']).doUpdateSet({
              requests: sql`api_key_usage.requests + excluded.requests`,
              response_ms: sql`api_key_usage.response_ms + excluded.response_ms`,
              last_at: sql`GREATEST(api_key_usage.last_at, excluded.last_at)`,
            }),
          ),
      )
      .insertInto('api_key_usage_periods')
      .values(usagePerPeriod(rows))
      .onConflict((oc) =>
        oc.columns(['key_id', 'period']).doUpdateSet({ requests: sql`api_key_usage_periods.requests + excluded.requests` }),
      )
      .execute()
  })
}
