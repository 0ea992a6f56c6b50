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

/** A row's stored tags: most rows have none, a new empty array without parsing its text. */
const tagsOf = (text: string): string[] => (text === '[]' ? [] : (JSON.parse(text) as string[]))

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
    tags: tagsOf(row.tags),
    bank_account_id: row.bank_account_id,
    bank_statement_id: row.bank_statement_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * toTransaction of a list page's row (the same fields in the same order, so the same JSON), that
 * keeps the amount's minor units in a private field: JSON, a structured clone, a spread and
 * `toEqual` leave it out, so the API's value is what it was. The CLI writes the amount from them
 * (listedMinorUnits) instead of reading it back from the number (docs/performance.md, "`tx list
 * --all` beside the store"); on the embedded transport the page reaches it as this value.
 */
export class ListedTransaction implements Transaction {
  readonly #minor: number
  // Declared, not initialised: the fields are made in the constructor's order, toTransaction's.
  declare id: Transaction['id']
  declare transaction_date: Transaction['transaction_date']
  declare posted_date: Transaction['posted_date']
  declare description: Transaction['description']
  declare original_description: Transaction['original_description']
  declare amount: Transaction['amount']
  declare currency_code: Transaction['currency_code']
  declare exchange_rate: Transaction['exchange_rate']
  declare exchange_rate_date: Transaction['exchange_rate_date']
  declare category: Transaction['category']
  declare accounting_category: Transaction['accounting_category']
  declare cash_flow_category: Transaction['cash_flow_category']
  declare merchant_name: Transaction['merchant_name']
  declare status: Transaction['status']
  declare is_reconciled: Transaction['is_reconciled']
  declare ai_confidence_score: Transaction['ai_confidence_score']
  declare tags: Transaction['tags']
  declare bank_account_id: Transaction['bank_account_id']
  declare bank_statement_id: Transaction['bank_statement_id']
  declare created_at: Transaction['created_at']
  declare updated_at: Transaction['updated_at']

  constructor(row: ShownTransactionRow) {
    const minor = Number(row.amount)
    this.#minor = minor
    this.id = row.id
    this.transaction_date = row.transaction_date
    this.posted_date = row.posted_date
    this.description = row.description
    this.original_description = row.original_description
    this.amount = minorToNumber(minor, row.currency_code)
    this.currency_code = row.currency_code
    this.exchange_rate = Number(row.exchange_rate)
    this.exchange_rate_date = row.exchange_rate_date ?? null
    this.category = row.category
    this.accounting_category = row.accounting_category as Transaction['accounting_category']
    this.cash_flow_category = row.cash_flow_category as Transaction['cash_flow_category']
    this.merchant_name = row.merchant_name
    this.status = row.status as Transaction['status']
    this.is_reconciled = row.is_reconciled === 1
    this.ai_confidence_score = row.ai_confidence_score
    this.tags = tagsOf(row.tags)
    this.bank_account_id = row.bank_account_id
    this.bank_statement_id = row.bank_statement_id
    this.created_at = row.created_at
    this.updated_at = row.updated_at
  }

  /** The minor units of a listed transaction's amount; undefined for any other value (one parsed from JSON). */
  static minorUnits(t: object): number | undefined {
    return #minor in t ? (t as ListedTransaction).#minor : undefined
  }
}

export const toListedTransaction = (row: ShownTransactionRow): Transaction => new ListedTransaction(row)

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
