/** 0002 adds the audit trail of transactions (audit_entries) and an index per sort order and filter of the transaction list. */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  let t = db.schema.createTable('audit_entries')
  t =
    dialect === 'postgres'
      ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await t
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_entries_transaction').on('audit_entries').columns(['transaction_id', 'id']).execute()
  // Keyset pages for each sort order, within a company and within an account.
  await db.schema.createIndex('transactions_company_amount').on('transactions').columns(['company_id', 'amount', 'id']).execute()
  await db.schema.createIndex('transactions_company_created').on('transactions').columns(['company_id', 'created_at', 'id']).execute()
  await db.schema
    .createIndex('transactions_company_status_date')
    .on('transactions')
    .columns(['company_id', 'status', 'transaction_date', 'id'])
    .execute()
  await db.schema
    .createIndex('transactions_company_category')
    .on('transactions')
    .columns(['company_id', 'category', 'transaction_date'])
    .execute()
  await db.schema.createIndex('transactions_statement').on('transactions').columns(['bank_statement_id', 'transaction_date']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const i of [
    'transactions_company_amount',
    'transactions_company_created',
    'transactions_company_status_date',
    'transactions_company_category',
    'transactions_statement',
  ]) {
    await db.schema.dropIndex(i).execute()
  }
  await db.schema.dropTable('audit_entries').execute()
}
