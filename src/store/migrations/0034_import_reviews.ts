/**
 * 0034 keeps review imports (`tx import --review`) until they are applied or discarded: one row per
 * pending batch (when it expires, how many rows it staged) and its validated rows by line, each the
 * create request the import would have sent. Nothing of them is a transaction until `imports apply`.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('import_reviews')
    .addColumn('batch_id', 'text', (c) => c.primaryKey().references('import_batches.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('staged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('import_reviews_expiry').on('import_reviews').columns(['expires_at']).execute()
  await db.schema
    .createTable('import_pending_rows')
    .addColumn('batch_id', 'text', (c) => c.notNull().references('import_reviews.batch_id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_pending_rows_pk', ['batch_id', 'line'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('import_pending_rows').execute()
  await db.schema.dropTable('import_reviews').execute()
}
