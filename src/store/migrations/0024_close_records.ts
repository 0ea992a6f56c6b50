/**
 * 0024 makes a close a record that can be checked later: period_closes keeps the audit chain's
 * head (entry id and hash) at the moment of the close, and close_exports one row per export written
 * for the closed month (format, file name, SHA-256, size, rows, and the accounts map's SHA-256 when a
 * journal used one), so that `finctl verify --close` can tell whether the books still say the same.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('period_closes').addColumn('chain_head_id', 'bigint').execute()
  await db.schema.alterTable('period_closes').addColumn('chain_head_hash', 'text').execute()
  let t = db.schema.createTable('close_exports')
  t =
    dialect === 'postgres'
      ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await t
    .addColumn('close_id', 'bigint', (c) => c.notNull().references('period_closes.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('rows', 'bigint', (c) => c.notNull())
    .addColumn('period_from', 'text', (c) => c.notNull())
    .addColumn('period_to', 'text', (c) => c.notNull())
    .addColumn('accounts_map_sha256', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('close_exports_close').on('close_exports').columns(['close_id', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('close_exports').execute()
  await db.schema.alterTable('period_closes').dropColumn('chain_head_hash').execute()
  await db.schema.alterTable('period_closes').dropColumn('chain_head_id').execute()
}
