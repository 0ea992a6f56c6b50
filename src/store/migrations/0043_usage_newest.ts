/**
 * 0043 numbers each key's usage records (`api_requests.seq`: 1, 2, ... in the order they were
 * written, the last one equal to the key's `usage_count`) and indexes them by (key_id, seq), so that
 * a usage read finds the newest records as a range of that index, whatever PostgreSQL's statistics
 * say (docs/performance.md, "Usage reads"). Existing records are numbered here.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('api_requests')
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await backfill(db)
  await db.schema.createIndex('api_requests_key_seq').on('api_requests').columns(['key_id', 'seq']).execute()
}

/** Numbers the records written so far, so that each key's last one is its usage_count (exported for its test). */
export async function backfill(db: AnyDb): Promise<void> {
  await sql`
    UPDATE api_requests SET seq = n.seq FROM (
      SELECT r.id, row_number() OVER (PARTITION BY r.key_id ORDER BY r.id)
          - count(*) OVER (PARTITION BY r.key_id)
          + coalesce((SELECT k.usage_count FROM api_keys k WHERE k.id = r.key_id), count(*) OVER (PARTITION BY r.key_id)) AS seq
        FROM api_requests r
    ) n WHERE n.id = api_requests.id`.execute(db)
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('api_requests_key_seq').execute()
  await db.schema.alterTable('api_requests').dropColumn('seq').execute()
}
