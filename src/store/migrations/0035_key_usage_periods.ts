/**
 * 0035 keeps each key's request count per ten-minute period (`api_key_usage_periods`), written with
 * the usage records, so that the last day's count of a usage read adds up at most 145 periods and
 * counts records only in the period the day starts in, however many requests the key made.
 * Existing records are counted in here.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_key_usage_periods')
    .addColumn('key_id', 'text', (c) => c.notNull())
    // The first 15 characters of the records' created_at (ISO 8601, UTC): '2026-11-26T17:2'.
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_usage_periods_pk', ['key_id', 'period'])
    .execute()
  await backfill(db)
}

/** Counts the records written so far into the periods (exported for its test). */
export async function backfill(db: AnyDb): Promise<void> {
  await sql`
    INSERT INTO api_key_usage_periods (key_id, period, requests)
    SELECT key_id, substr(created_at, 1, 15), count(*) FROM api_requests GROUP BY key_id, substr(created_at, 1, 15)`.execute(db)
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('api_key_usage_periods').execute()
}
