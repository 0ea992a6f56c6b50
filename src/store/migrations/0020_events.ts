/**
 * 0020 adds the outbox of events: one row per change a company's systems downstream may
 * want to hear of, written in the same database transaction as the change (docs/events.md).
 * `seq` orders a company's events and is the cursor readers page with; `data` is the JSON
 * payload (the object as the API returns it, or ids and counts for a batch).
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  let t = db.schema.createTable('events')
  t =
    dialect === 'postgres'
      ? t.addColumn('seq', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
  await t
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('events_company_seq').on('events').columns(['company_id', 'seq']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('events').execute()
}
