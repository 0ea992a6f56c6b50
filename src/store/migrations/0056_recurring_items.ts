/**
 * 0056 adds recurring items (docs/forecast.md): series of payments found by `recurring detect`
 * (suggested until accepted) or added by hand, with what they are matched by and rest on.
 */
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const { money } = types(dialect)
  await db.schema
    .createTable('recurring_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('match_key', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('anchor_date', 'text', (c) => c.notNull())
    .addColumn('anchor_day', 'integer')
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('amount_tolerance', 'integer', (c) => c.notNull())
    .addColumn('date_tolerance', 'integer', (c) => c.notNull())
    .addColumn('bank_account_id', 'text')
    .addColumn('category', 'text')
    .addColumn('first_seen', 'text')
    .addColumn('last_seen', 'text')
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addColumn('based_on', 'text', (c) => c.notNull())
    .addColumn('ends_on', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute()
  await db.schema.createIndex('recurring_items_company').on('recurring_items').columns(['company_id', 'status', 'name']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('recurring_items').execute()
}
