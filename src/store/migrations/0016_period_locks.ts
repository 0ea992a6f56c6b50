/**
 * 0016 adds period locks: companies.lock_date, the last day of the last closed month (null:
 * nothing closed), before which no transaction changes; and period_closes, one row per close or
 * reopen of a month (who, when, why), the record a lock date is explained by.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('companies').addColumn('lock_date', 'text').execute()
  let closes = db.schema.createTable('period_closes')
  closes =
    dialect === 'postgres'
      ? closes.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : closes.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await closes
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('lock_date', 'text')
    .addColumn('previous_lock_date', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('forced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('period_closes_company').on('period_closes').columns(['company_id', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('period_closes').execute()
  await db.schema.alterTable('companies').dropColumn('lock_date').execute()
}
