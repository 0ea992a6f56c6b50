/**
 * 0010 adds exchange_rates, a company's dated rates to its base currency (units of the base per 1
 * unit of `currency_code`, decimal text), one per currency and day, and transactions.exchange_rate_date:
 * the date of the table's rate a transaction was converted at (null when the rate was given, or for
 * the base currency). The primary key (company, currency, date) serves the lookups by currency and
 * date range of a batch.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('exchange_rates')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('rate_date', 'text', (c) => c.notNull())
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_rates_pk', ['company_id', 'currency_code', 'rate_date'])
    .execute()
  await db.schema.alterTable('transactions').addColumn('exchange_rate_date', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('exchange_rate_date').execute()
  await db.schema.dropTable('exchange_rates').execute()
}
