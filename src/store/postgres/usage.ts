/** Usage records on PostgreSQL: multi-row inserts and one update a key, in one transaction. */
import { type Kysely, sql } from 'kysely'
import { usagePerGroup, usagePerKey, usagePerPeriod } from '../api-usage.js'
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
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto('api_requests')
        .values(rows.slice(i, i + 1000))
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
    for (const [id, { n, last }] of perKey) {
      await trx
        .updateTable('api_keys')
        .set({
          usage_count: sql`usage_count + ${n}`,
          last_used_at: sql`CASE WHEN last_used_at IS NULL OR last_used_at < ${last} THEN ${last} ELSE last_used_at END`,
        })
        .where('id', '=', id)
        .execute()
    }
  })
}
