/**
 * 0008 adds SQLite's one-column amount index in place of (company_id, amount, id); nothing on PostgreSQL.
 *
 * `(company_id, amount, id)` was nearly half an imported row's cost at a million rows (every insert lands
 * on a random page, and the index outgrew the page cache); `(amount)` alone, a fifth of its size,
 * costs a third as much (docs/performance.md, "Inserting a row"). The list names it for amount sorts (INDEXED BY, see
 * domain/transactions/queries.ts) and checks the company per row, which costs nothing when one company owns
 * the file, as an embedded database does. PostgreSQL, where several companies share a server, keeps
 * the company-first index.
 */
import type { AnyDb, Dialect } from './common.js'

export const AMOUNT_INDEX = 'transactions_amount'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return
  await db.schema.dropIndex('transactions_company_amount').execute()
  await db.schema.createIndex(AMOUNT_INDEX).on('transactions').column('amount').execute()
}

export async function down(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return
  await db.schema.dropIndex(AMOUNT_INDEX).execute()
  await db.schema.createIndex('transactions_company_amount').on('transactions').columns(['company_id', 'amount', 'id']).execute()
}
