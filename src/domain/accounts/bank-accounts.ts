/** Bank accounts. The full account number is never stored: only its last four characters. */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { foldedName } from '../../store/fragments.js'
import type { Store } from '../../store/store.js'
import { nextKey } from '../../store/keys.js'
import type { BankAccountRow, Db } from '../../store/schema.js'
import type { Actor } from '../actor.js'
import { AppError, validation } from '../../kernel/errors.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { minorToNumber, parseAmount } from '../../kernel/money.js'
import type { BankAccount, CreateBankAccountRequest, UnconvertedTransactions } from '../schemas.js'
import { baseCurrency } from './companies.js'
import { accountMovements, type Movement, type Unconverted } from './balances.js'
import { balanceOf, heldByOpening, type Held } from './opening.js'
import { eventRow, recordEvents } from '../events.js'
import { dropUnusedStatementFiles } from '../statement-files.js'
import { openingRateOf } from './opening-rate.js'
import { checkUnlocked, lockDateOf, periodLocked } from './period-lock.js'
import { findBankAccount } from './lookup.js'

/** An account as the API shows it, from its movement (balances.ts) and what its opening balance holds (opening.ts). */
export function toBankAccount(row: Omit<BankAccountRow, 'key'>, moved: Balances = NOTHING): BankAccount {
  const balance = balanceOf({ ...row, key: 0 }, moved.movement, moved.held)
  return {
    id: row.id,
    name: row.name,
    institution_name: row.institution_name,
    account_type: row.account_type as BankAccount['account_type'],
    account_number_last4: row.account_number_last4,
    currency_code: row.currency_code,
    status: row.status as BankAccount['status'],
    opening_balance: minorToNumber(row.opening_balance, row.currency_code),
    opening_balance_date: row.opening_balance_date,
    opening_exchange_rate: row.opening_exchange_rate === null ? null : Number(row.opening_exchange_rate),
    opening_exchange_rate_date: row.opening_exchange_rate_date,
    current_balance: minorToNumber(balance.net, row.currency_code),
    unconverted_transactions: unconvertedJson(balance.unconverted),
    transactions_before_opening: moved.held?.count ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The transactions a balance leaves out, as the API shows them. */
export function unconvertedJson(list: Unconverted[]): UnconvertedTransactions[] {
  return list.map((u) => ({ currency_code: u.currency_code, count: u.count, amount: minorToNumber(u.amount, u.currency_code) }))
}

/** What is kept of an account number: its last four characters (spaces and dashes left out). */
export function last4Of(accountNumber: string | null | undefined): string | null {
  const digits = accountNumber?.replace(/[\s-]/g, '')
  return digits ? digits.slice(-4) : null
}

export async function createBankAccount(store: Store, actor: Actor, input: CreateBankAccountRequest, now: Date): Promise<BankAccount> {
  let opening = 0
  if (input.opening_balance !== undefined) {
    const r = parseAmount(input.opening_balance, currencyExponent(input.currency_code))
    if (!r.ok) throw validation('opening_balance', r.message)
    opening = r.minor
  }
  const row: Omit<BankAccountRow, 'key'> = {
    id: randomUUID(),
    company_id: actor.companyId,
    name: input.name,
    institution_name: input.institution_name ?? null,
    account_type: input.account_type,
    account_number_last4: last4Of(input.account_number),
    currency_code: input.currency_code,
    status: 'active',
    opening_balance: opening,
    opening_balance_date: input.opening_balance_date ?? null,
    opening_exchange_rate: null,
    opening_exchange_rate_date: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  }
  const base = await baseCurrency(store, actor.companyId)
  let account = toBankAccount(row)
  await store.writeTransaction(async (trx) => {
    checkOpeningUnlocked(await lockDateOf(trx, actor.companyId), row, 'opening_balance_date')
    const rate = await openingRateOf(trx, actor.companyId, base, row, input.opening_exchange_rate, now)
    row.opening_exchange_rate = rate.rate
    row.opening_exchange_rate_date = rate.date
    account = toBankAccount(row)
    await refuseTakenName(store, trx, actor.companyId, input.name)
    await trx
      .insertInto('bank_accounts')
      .values({ ...row, key: await nextKey(trx, 'bank_accounts') })
      .execute()
    await recordEvents(store, trx, [eventRow(actor, 'bank_account.created', row.id, account, now)])
  })
  return account
}

/**
 * One name per bank account in a company (ignoring case and surrounding spaces): the seed finds its
 * accounts by name, and people pick them by name. Inside a write transaction: BEGIN IMMEDIATE on
 * SQLite (a deferred one that reads first fails with "database is locked" when another process
 * writes meanwhile); PostgreSQL locks the company row, so two processes cannot both take a name.
 * (SQLite's lower() folds ASCII only: names differing in the case of other letters are not caught there.)
 */
export async function refuseTakenName(store: Store, trx: Kysely<Db>, companyId: string, name: string, except?: string): Promise<void> {
  if (store.sql.rowLocks) await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute()
  let q = trx
    .selectFrom('bank_accounts')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where(foldedName('name'), '=', name.trim().toLowerCase())
  if (except) q = q.where('id', '!=', except)
  const taken = await q.executeTakeFirst()
  if (taken) {
    const message = `a bank account named "${taken.name}" already exists (${taken.id}): bank account names are unique in a company`
    throw new AppError('conflict', message, { details: [{ path: 'name', message }] })
  }
}

/** What an account's balance is counted from: its movement in its own currency, and what its opening balance holds. */
export interface Balances {
  movement: Movement
  held?: Held
}
const NOTHING: Balances = { movement: { net: 0n, unconverted: [] } }

/** Each account's movement in its own currency (balances.ts) and what its opening balance holds, by account key. */
export async function movements(
  store: Store,
  companyId: string,
  rows: BankAccountRow[],
  db: Kysely<Db> = store.db,
): Promise<Map<number, Balances>> {
  if (rows.length === 0) return new Map()
  const base = await baseCurrency(store, companyId, db)
  const moved = await accountMovements(db, rows, base)
  const held = await heldByOpening(db, rows, base)
  return new Map(rows.map((r) => [r.key, { movement: moved.get(r.key)!, held: held.get(r.key) }]))
}

export async function listBankAccounts(
  store: Store,
  companyId: string,
  filter: { status?: string; account_type?: string },
): Promise<BankAccount[]> {
  let q = store.db.selectFrom('bank_accounts').selectAll().where('company_id', '=', companyId)
  if (filter.status) q = q.where('status', '=', filter.status)
  if (filter.account_type) q = q.where('account_type', '=', filter.account_type)
  const rows = await q.orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
  const moved = await movements(store, companyId, rows)
  return rows.map((r) => toBankAccount(r, moved.get(r.key)))
}

export { findBankAccount } from './lookup.js'

export async function getBankAccount(store: Store, companyId: string, id: string): Promise<BankAccount> {
  const row = await findBankAccount(store, companyId, id)
  const moved = await movements(store, companyId, [row])
  return toBankAccount(row, moved.get(row.key))
}

/**
 * An account whose opening balance counts in a closed month cannot come or go: created or
 * deleted with its opening date on or before the lock date, or with none and a balance that is not
 * 0 (it then counts in every month).
 */
function checkOpeningUnlocked(
  lockDate: string | null,
  row: Pick<BankAccountRow, 'name' | 'opening_balance' | 'opening_balance_date'>,
  path: string,
): void {
  if (lockDate === null) return
  const od = row.opening_balance_date
  if (od !== null) {
    checkUnlocked(lockDate, od, `the opening date ${od} of bank account "${row.name}"`, path)
    return
  }
  if (Number(row.opening_balance) === 0) return
  const message = `bank account "${row.name}" has no opening date, so its opening balance counts in every month, closed ones too: it cannot come or go while the lock date is ${lockDate} (give an opening date after it, or finctl close reopen MONTH --reason TEXT, of the first closed month)`
  throw new AppError('period_locked', message, { details: [{ path, message: `the lock date is ${lockDate}` }] })
}

/**
 * An account that holds transactions cannot be deleted (close it instead: status "closed"); one
 * whose opening balance or transactions count in a closed month is refused with period_locked.
 */
export async function deleteBankAccount(store: Store, actor: Actor, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  const { companyId } = actor
  return store.writeTransaction(async (trx) => {
    const row = await findBankAccount(store, companyId, id, trx)
    const lockDate = await lockDateOf(trx, companyId)
    if (lockDate !== null) {
      const closed = await trx
        .selectFrom('transactions')
        .select('transaction_date')
        .where('account_key', '=', row.key)
        .where('transaction_date', '<=', lockDate)
        .limit(1)
        .executeTakeFirst()
      if (closed)
        throw periodLocked(
          lockDate,
          closed.transaction_date,
          `bank account "${row.name}" holds a transaction dated ${closed.transaction_date}, which`,
          'id',
        )
      checkOpeningUnlocked(lockDate, row, 'id')
    }
    const held = await trx.selectFrom('transactions').select('seq').where('account_key', '=', row.key).limit(1).executeTakeFirst()
    if (held)
      throw new AppError(
        'conflict',
        `bank account "${row.name}" holds transactions and cannot be deleted: close it instead (status: closed)`,
      )
    // Statements that brought no transaction (failed, or empty) go with the account, and their files with the last of them.
    const gone = await trx.selectFrom('bank_statements').select('file_sha256').where('bank_account_id', '=', row.id).execute()
    await trx.deleteFrom('bank_statements').where('bank_account_id', '=', row.id).execute()
    await dropUnusedStatementFiles(
      trx,
      row.company_id,
      gone.map((s) => s.file_sha256),
    )
    await trx.deleteFrom('bank_accounts').where('id', '=', row.id).execute()
    await recordEvents(store, trx, [eventRow(actor, 'bank_account.deleted', row.id, { ...toBankAccount(row), deleted: true }, now)])
    return { id: row.id, deleted: true as const }
  })
}
