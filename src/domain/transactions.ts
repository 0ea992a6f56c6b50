/** Transactions: create (spec 4.3) and the row <-> resource mapping. */
import { randomUUID } from 'node:crypto'
import type { Store } from '../store/store.js'
import type { Kysely } from 'kysely'
import type { Db, NewTransactionRow, TransactionRow } from '../store/schema.js'
import { actorId, type Actor } from './actor.js'
import { requestHash, runIdempotent, type IdempotentResult } from './idempotency.js'
import { AppError, validation } from './errors.js'
import { currencyExponent } from './currencies.js'
import { convertMinor, minorToNumber, parseAmount, parseRate } from './money.js'
import type { CreateTransactionRequest, Transaction } from './schemas.js'
import { findBankAccount } from './bank-accounts.js'
import { getCompany } from './companies.js'

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    transaction_date: row.transaction_date,
    posted_date: row.posted_date,
    description: row.description,
    original_description: row.original_description,
    amount: minorToNumber(Number(row.amount), row.currency_code),
    currency_code: row.currency_code,
    exchange_rate: Number(row.exchange_rate),
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

const baseCurrencies = new WeakMap<Store, Map<string, string>>()

/** A company's base currency never changes, so it is cached per store. */
export async function baseCurrency(store: Store, companyId: string, db: Kysely<Db> = store.db): Promise<string> {
  let m = baseCurrencies.get(store)
  if (!m) baseCurrencies.set(store, (m = new Map()))
  let c = m.get(companyId)
  if (!c) {
    c = (await getCompany(store, companyId, db)).base_currency
    m.set(companyId, c)
  }
  return c
}

/** Validate a create request against its account and build the row; throws AppError. */
export async function buildTransactionRow(
  store: Store,
  actor: Actor,
  input: CreateTransactionRequest,
  now: Date,
  db: Kysely<Db> = store.db,
): Promise<NewTransactionRow> {
  const account = await findBankAccount(store, actor.companyId, input.bank_account_id, db).catch((e: AppError) => {
    throw new AppError(e.code, 'bank account not found', { details: [{ path: 'bank_account_id', message: 'no such bank account' }] })
  })
  if (account.status === 'closed') {
    throw new AppError('conflict', `bank account "${account.name}" is closed: reopen it before adding transactions`)
  }
  const currency = input.currency_code ?? account.currency_code
  const amount = parseAmount(input.amount, currencyExponent(currency))
  if (!amount.ok) throw validation('amount', `${amount.message} (${currency})`)

  const base = await baseCurrency(store, actor.companyId, db)
  let rate = '1'
  if (input.exchange_rate !== undefined) {
    const r = parseRate(input.exchange_rate)
    if (!r) throw validation('exchange_rate', 'must be a positive decimal number')
    rate = r
  } else if (currency !== base) {
    throw validation('exchange_rate', `is required for ${currency}: give the rate to the base currency ${base}`)
  }
  if (currency === base && rate !== '1') throw validation('exchange_rate', `must be 1 for the base currency ${base}`)
  let baseAmount: number
  try {
    baseAmount = convertMinor(amount.minor, currencyExponent(currency), rate, currencyExponent(base))
  } catch {
    throw validation('amount', `is too large once converted to the base currency ${base}`)
  }

  const ts = now.toISOString()
  return {
    id: randomUUID(),
    company_id: actor.companyId,
    bank_account_id: account.id,
    bank_statement_id: null,
    transaction_date: input.transaction_date,
    posted_date: input.posted_date ?? input.transaction_date,
    description: input.description,
    original_description: input.original_description ?? input.description,
    amount: amount.minor,
    currency_code: currency,
    exchange_rate: rate,
    base_amount: baseAmount,
    category: input.category ?? null,
    accounting_category: input.accounting_category ?? null,
    cash_flow_category: input.cash_flow_category ?? null,
    merchant_name: input.merchant_name ?? null,
    status: 'pending',
    is_reconciled: 0,
    ai_confidence_score: null,
    tags: JSON.stringify(input.tags ?? []),
    created_at: ts,
    updated_at: ts,
  }
}

export async function createTransaction(store: Store, actor: Actor, input: CreateTransactionRequest, now: Date): Promise<Transaction> {
  const row = await buildTransactionRow(store, actor, input, now)
  await store.hot.insertTransactions([row])
  return toTransaction(row as TransactionRow)
}

/** Create under an Idempotency-Key: the same key and body replay the first answer (keys are per credential). */
export async function createTransactionIdempotent(
  store: Store,
  actor: Actor,
  input: CreateTransactionRequest,
  idempotencyKey: string,
  now: Date,
): Promise<IdempotentResult<Transaction>> {
  const hash = requestHash('POST', '/api-v1/transactions', input)
  return runIdempotent(store, { owner: actorId(actor), key: idempotencyKey, hash, now }, async (trx) => {
    const row = await buildTransactionRow(store, actor, input, now, trx)
    await trx.insertInto('transactions').values(row).execute()
    return { status: 201, body: toTransaction(row as TransactionRow) }
  })
}
