/**
 * 0006 makes the category and statement indexes of transactions partial (rows with a value only).
 *
 * A row without a statement or without a category (every freshly imported row) adds nothing to
 * them. Queries filter with `= value`, which implies NOT NULL, so both SQLite and PostgreSQL still
 * use them.
 */
import { sql } from 'kysely'
import type { AnyDb } from './common.js'

async function rebuild(db: AnyDb, partial: boolean): Promise<void> {
  await db.schema.dropIndex('transactions_company_category').execute()
  await db.schema.dropIndex('transactions_statement').execute()
  // With `id` last it also gives the keyset order (date, id), so a page of a rare category is read
  // from it alone instead of scanning the whole date index for matches.
  const category = db.schema
    .createIndex('transactions_company_category')
    .on('transactions')
    .columns(['company_id', 'category', 'transaction_date', ...(partial ? ['id'] : [])])
  const statement = db.schema.createIndex('transactions_statement').on('transactions').columns(['bank_statement_id', 'transaction_date'])
  await (partial ? category.where(sql.ref('category'), 'is not', null) : category).execute()
  await (partial ? statement.where(sql.ref('bank_statement_id'), 'is not', null) : statement).execute()
}

export const up = (db: AnyDb): Promise<void> => rebuild(db, true)
export const down = (db: AnyDb): Promise<void> => rebuild(db, false)
