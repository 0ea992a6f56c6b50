/**
 * 0029 keeps each key's usage totals per endpoint and status (`api_key_usage`), written with the
 * usage records, so that a usage read costs the same however many requests the key made.
 * Existing records are counted in here.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_key_usage')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('response_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'endpoint', 'status_code'])
    .execute()
  await backfill(db)
}

/** Counts the records written so far into the totals (exported for its test). */
export async function backfill(db: AnyDb): Promise<void> {
  await sql`
    INSERT INTO api_key_usage (key_id, endpoint, status_code, requests, response_ms, last_at)
    SELECT key_id, endpoint, status_code, count(*), coalesce(sum(response_time_ms), 0), max(created_at)
    FROM api_requests GROUP BY key_id, endpoint, status_code`.execute(db)
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('api_key_usage').execute()
}
