/**
 * 0026 records what a closed month holds: on each close, the number of its transaction rows,
 * a SHA-256 over them and its figures (period_closes), and each row's own hash (close_rows), so that
 * `verify --close` names a row inserted, edited or deleted since, whoever did it.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('period_closes').addColumn('rows_count', 'bigint').execute()
  await db.schema.alterTable('period_closes').addColumn('rows_sha256', 'text').execute()
  await db.schema.alterTable('period_closes').addColumn('figures', 'text').execute()
  await db.schema
    .createTable('close_rows')
    .addColumn('close_id', 'bigint', (c) => c.notNull().references('period_closes.id').onDelete('cascade'))
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('close_rows_pk', ['close_id', 'transaction_id'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('close_rows').execute()
  for (const c of ['figures', 'rows_sha256', 'rows_count']) await db.schema.alterTable('period_closes').dropColumn(c).execute()
}
