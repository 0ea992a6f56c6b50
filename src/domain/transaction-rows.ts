/**
 * A stored transaction row as the API's Transaction, its company's key and the lookup by id: what
 * every module that reads transactions needs (categorization and statements too), so it sits below
 * every aggregate.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../store/schema.js'
import type { Store } from '../store/store.js'
import type { NewTransactionRow, TransactionRow } from '../store/transaction-codec.js'
import type { ShownTransactionRow } from '../store/shown-transactions.js'
import { notFound } from '../kernel/errors.js'
import { minorToNumber } from '../kernel/money.js'
import type { Transaction } from './schemas.js'

export function toTransaction(row: ShownTransactionRow | NewTransactionRow): Transaction {
  return {
    id: row.id,
    transaction_date: row.transaction_date,
    posted_date: row.posted_date,
    description: row.description,
    original_description: row.original_description,
    amount: minorToNumber(Number(row.amount), row.currency_code),
    currency_code: row.currency_code,
    exchange_rate: Number(row.exchange_rate),
    exchange_rate_date: row.exchange_rate_date ?? null,
    category: row.category,
    accounting_category: row.accounting_category as Transaction['accounting_category'],
    cash_flow_category: row.cash_flow_category as Transaction['cash_flow_category'],
    merchant_name: row.merchant_name,
    status: row.status as Transaction['status'],
    is_reconciled: row.is_reconciled === 1,
    ai_confidence_score: row.ai_confidence_score,
    tags: JSON.parse(row.tags) as string[],
    bank_account_id: row.bank_account_id,
    bank_statement_id: row.bank_statement_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** A company's key, what its transactions are stored under (cached by the store). */
export function companyKey(store: Store, companyId: string, db: Kysely<Db> = store.db): Promise<number> {
  return store.tx.companyKey(companyId, db)
}

/** A company's transaction by its public id, as the domain reads it; not found (404) otherwise. */
export async function findTransaction(store: Store, companyId: string, id: string): Promise<TransactionRow> {
  const stored = store.tx.idParam(id)
  const found = stored
    ? await store.db
        .selectFrom('transactions')
        .selectAll()
        .where('company_key', '=', await companyKey(store, companyId))
        .where('id', '=', stored)
        .executeTakeFirst()
    : undefined
  if (!found) throw notFound('transaction')
  const [row] = await store.tx.decode(store.db, [found])
  return row
}
