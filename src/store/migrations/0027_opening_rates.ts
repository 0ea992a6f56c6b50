/**
 * 0027 fixes the rate of an opening balance in another currency than the base: the account
 * keeps it (`opening_exchange_rate`, with the date of the company's rate it came from, null when it
 * was given), so that no later write moves a closed month's figures. Before, reports took the rate
 * of the account's earliest non-void transaction in its currency at each reading; existing accounts
 * get that very rate here, so nothing moves for them. One without such a transaction keeps none:
 * its opening balance stays unconverted, as before, until a rate is given.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('bank_accounts').addColumn('opening_exchange_rate', 'text').execute()
  await db.schema.alterTable('bank_accounts').addColumn('opening_exchange_rate_date', 'text').execute()
  await backfill(db)
}

/** Each account's rate by the rule reports took until now (exported for its test). */
export async function backfill(db: AnyDb): Promise<void> {
  const first = (column: string) => sql`(
    SELECT ${sql.ref(`t.${column}`)} FROM transactions t
    WHERE t.account_key = bank_accounts.key AND t.currency_code = bank_accounts.currency_code AND t.status <> 'void'
    ORDER BY t.transaction_date, t.seq LIMIT 1)`
  await sql`
    UPDATE bank_accounts
    SET opening_exchange_rate = ${first('exchange_rate')}, opening_exchange_rate_date = ${first('exchange_rate_date')}
    WHERE opening_balance <> 0 AND opening_exchange_rate IS NULL
      AND currency_code <> (SELECT c.base_currency FROM companies c WHERE c.id = bank_accounts.company_id)`.execute(db)
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('bank_accounts').dropColumn('opening_exchange_rate_date').execute()
  await db.schema.alterTable('bank_accounts').dropColumn('opening_exchange_rate').execute()
}
