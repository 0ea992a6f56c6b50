/**
 * 0013 ends transactions_report_account with `currency_code`: an account's balance is in its
 * own currency, counting a transaction in another currency by its base_amount (an account in the
 * base currency) or naming it unconverted (docs/money.md), so the balance's query tells the two
 * apart by currency; with the column in the index it still reads that index alone, as 0012 made it.
 *
 * SQLite: a bulk load may have set this index aside (sqlite/bulk-load.ts); as for 0012, the store
 * builds such indexes before it migrates.
 */
import { sql } from 'kysely'
import type { AnyDb, Dialect } from './common.js'

const INDEX = 'transactions_report_account'
const COLUMNS =
  'account_key, transaction_date, cash_flow_category, accounting_category, category, merchant_name, status, is_reconciled, base_amount, amount'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${INDEX}`).execute(db)
  await sql.raw(`CREATE INDEX ${INDEX} ON transactions (${COLUMNS}, currency_code)`).execute(db)
}

export async function down(db: AnyDb, _dialect: Dialect): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${INDEX}`).execute(db)
  await sql.raw(`CREATE INDEX ${INDEX} ON transactions (${COLUMNS})`).execute(db)
}
