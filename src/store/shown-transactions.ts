/**
 * A list page's transactions read for what they show (the API's Transaction) and nothing more: the
 * stored columns it names, the id as text from the database itself (on SQLite, where it is kept in
 * 16 bytes), and one object a row for the caller to build, with no row as the domain reads it in
 * between. `tx list --all` reads every row this way (docs/performance.md, "`tx list --all` beside
 * the store"); transaction-codec.ts's `decode` stays the whole row's reading.
 */
import type { Kysely } from 'kysely'
import { type StoredTransactionColumn, TRANSACTION_FIELDS, type TransactionField } from '../kernel/transaction-fields.js'
import { type Db, type StoredTransactionRow, TX_COLUMNS } from './schema.js'
import type { TransactionCodec, TransactionRow } from './transaction-codec.js'

type ShownName = 'seq' | 'account_key' | Exclude<Extract<StoredTransactionColumn, TransactionField>, 'id'>
const API_FIELDS: ReadonlySet<string> = new Set(TRANSACTION_FIELDS)

/**
 * The stored columns a transaction shows, besides its id (the stored columns the API answers, the
 * account by its key); seq is the keyset cursor's tie-breaker.
 */
const SHOWN: readonly ShownName[] = [
  'seq',
  'account_key',
  ...TX_COLUMNS.filter((c): c is Exclude<ShownName, 'seq' | 'account_key'> => c !== 'id' && API_FIELDS.has(c)),
]
export const SHOWN_COLUMNS = SHOWN.map((c) => `transactions.${c}` as const)

/** A stored row as a page reads it: the shown columns, the id as text. */
export type ShownStoredRow = Pick<StoredTransactionRow, ShownName> & { id: string }

/** What a transaction shows, as the domain reads it (TransactionRow holds it all). */
export type ShownTransactionRow = Pick<TransactionRow, Exclude<ShownName, 'account_key'> | 'id' | 'bank_account_id'>

/** What a page selects of transactions: the shown columns and the id as text (the dialect's `idText`). */
export function shownColumns(codec: TransactionCodec) {
  return [...SHOWN_COLUMNS, codec.adapter.sql.idText().as('id')] as const
}

/**
 * `make` of each row as it shows (`db` may be an open transaction). One object stands for every row
 * in turn, so `make` must build its own value from it and keep nothing of it.
 */
export async function decodeShown<T>(
  codec: TransactionCodec,
  db: Kysely<Db>,
  rows: readonly ShownStoredRow[],
  make: (row: ShownTransactionRow) => T,
): Promise<T[]> {
  if (rows.length === 0) return []
  const keys = new Set<number>()
  for (const r of rows) keys.add(Number(r.account_key))
  const accounts = await codec.accountIds(db, [...keys])
  const view = {} as ShownTransactionRow
  const out = new Array<T>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]
    const accountId = accounts.get(Number(r.account_key))
    if (accountId === undefined) throw new Error(`transaction ${r.id}: no bank account has key ${r.account_key}`)
    // As TransactionCodec.decode reads them: NULL for a value equal to the one it defaults to.
    view.seq = Number(r.seq)
    view.id = r.id
    view.bank_account_id = accountId
    view.bank_statement_id = r.bank_statement_id
    view.transaction_date = r.transaction_date
    view.posted_date = r.posted_date ?? r.transaction_date
    view.description = r.description
    view.original_description = r.original_description ?? r.description
    view.amount = Number(r.amount)
    view.currency_code = r.currency_code
    view.exchange_rate = r.exchange_rate
    view.category = r.category
    view.accounting_category = r.accounting_category
    view.cash_flow_category = r.cash_flow_category
    view.merchant_name = r.merchant_name
    view.status = r.status
    view.is_reconciled = Number(r.is_reconciled)
    view.ai_confidence_score = r.ai_confidence_score
    view.tags = r.tags
    view.created_at = r.created_at
    view.updated_at = r.updated_at ?? r.created_at
    view.exchange_rate_date = r.exchange_rate_date
    out[i] = make(view)
  }
  return out
}
