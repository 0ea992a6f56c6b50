/**
 * 0055 adds budgets (docs/budgets.md): an amount per category, month and version, never edited in
 * place (a change supersedes the row), and the company's versions, one of them current.
 */
import { sql } from 'kysely'
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const { money } = types(dialect)
  await db.schema
    .createTable('budget_versions')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('budget_versions_pk', ['company_id', 'name'])
    .execute()
  await db.schema
    .createTable('budgets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('rollover', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('superseded_at', 'text')
    .addColumn('superseded_by', 'text')
    .execute()
  // One live amount per version, category and month; superseded rows stay for --as-of.
  await db.schema
    .createIndex('budgets_live')
    .on('budgets')
    .columns(['company_id', 'version', 'category', 'month'])
    .unique()
    .where(sql.ref('superseded_at'), 'is', null)
    .execute()
  await db.schema.createIndex('budgets_company').on('budgets').columns(['company_id', 'version', 'month']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('budgets').execute()
  await db.schema.dropTable('budget_versions').execute()
}
