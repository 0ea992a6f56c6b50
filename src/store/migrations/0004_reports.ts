/**
 * 0004 adds the covering indexes that reports read (transactions_report_company, transactions_report_account).
 *
 * Reports (cash flow, summary) read only these indexes: one range scan per date range, within a
 * company or an account, in an order whose prefixes are the reports' GROUP BYs (day, then cash-flow
 * category, accounting category, category, merchant), so SQLite groups without sorting.
 */
import type { AnyDb } from './common.js'

const REPORT_COLUMNS = [
  'transaction_date',
  'cash_flow_category',
  'accounting_category',
  'category',
  'merchant_name',
  'status',
  'is_reconciled',
  'base_amount',
]

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('transactions_report_company')
    .on('transactions')
    .columns(['company_id', ...REPORT_COLUMNS])
    .execute()
  await db.schema
    .createIndex('transactions_report_account')
    .on('transactions')
    .columns(['bank_account_id', ...REPORT_COLUMNS])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('transactions_report_account').execute()
  await db.schema.dropIndex('transactions_report_company').execute()
}
