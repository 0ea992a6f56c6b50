/**
 * 0012 ends transactions_report_account with `amount`, so that an account's balance (the sum of its
 * amounts that are not void: BankAccount.current_balance) reads that index alone instead of every
 * row of the account in the table: on a large account `finctl accounts get` took seconds, and every
 * `tx import` into that account waited as long before its first batch (it reads the account for its
 * currency) (docs/performance.md, "Reports and lists").
 * The index grows by the amount, about 4 bytes a transaction. Both dialects, same columns.
 *
 * SQLite: a bulk load may have set this index aside (sqlite/bulk-load.ts). Its definition there is
 * the one before; the store builds such indexes before it migrates, and a load still running in
 * another process builds its set-aside indexes with CREATE INDEX IF NOT EXISTS, which keeps this one.
 */
import { sql } from 'kysely'
import type { AnyDb, Dialect } from './common.js'

const INDEX = 'transactions_report_account'
const COLUMNS =
  'account_key, transaction_date, cash_flow_category, accounting_category, category, merchant_name, status, is_reconciled, base_amount'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${INDEX}`).execute(db)
  await sql.raw(`CREATE INDEX ${INDEX} ON transactions (${COLUMNS}, amount)`).execute(db)
}

export async function down(db: AnyDb, _dialect: Dialect): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${INDEX}`).execute(db)
  await sql.raw(`CREATE INDEX ${INDEX} ON transactions (${COLUMNS})`).execute(db)
}
