/**
 * Changing a bank account (PATCH /bank-accounts/{id}, `finctl accounts update`): its name, bank,
 * type and status, and its account number, opening balance and opening date. A change is
 * an event (`bank_account.updated`) and an entry of the audit chain (action `account_update`, keyed
 * by the account's id), written in the same database transaction; reports as they stood
 * (`as_of`) undo those entries to find an opening balance as it was.
 *
 * The opening balance, its date and its rate (opening-rate.ts) move figures, so a change of any is
 * refused when it would move a closed month's (the lock date: period-lock.ts), and the date may not
 * move past a transaction of the account (no transaction is dated before it: opening.ts).
 */
import type { Kysely } from 'kysely'
import type { BankAccountRow, Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { AppError, validation } from '../../kernel/errors.js'
import { parseAmount } from '../../kernel/money.js'
import { type Actor, actorId } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import type { BankAccount, UpdateBankAccountRequest } from '../schemas.js'
import { findBankAccount, getBankAccount, last4Of, movements, refuseTakenName, toBankAccount } from './bank-accounts.js'
import { lockDateOf, periodLocked } from './period-lock.js'
import { openingRateOf } from './opening-rate.js'
import { baseCurrency } from './companies.js'

/** The audit action of a change of a bank account (its entry's transaction_id is the account's id). */
export const ACCOUNT_UPDATE = 'account_update'

/** The fields of an account its audit entries record, as the API shows them. */
const AUDITED = [
  'name',
  'institution_name',
  'account_type',
  'status',
  'account_number_last4',
  'opening_balance',
  'opening_balance_date',
  'opening_exchange_rate',
  'opening_exchange_rate_date',
] as const satisfies ReadonlyArray<keyof BankAccount>

export async function updateBankAccount(
  store: Store,
  actor: Actor,
  id: string,
  patch: UpdateBankAccountRequest,
  now: Date,
): Promise<BankAccount> {
  const { companyId } = actor
  await store.writeTransaction(async (trx) => {
    const row = await lockAccount(store, trx, companyId, id)
    const set: Partial<BankAccountRow> = {}
    if (patch.name !== undefined) set.name = patch.name
    if (patch.institution_name !== undefined) set.institution_name = patch.institution_name
    if (patch.account_type !== undefined) set.account_type = patch.account_type
    if (patch.status !== undefined) set.status = patch.status
    if (patch.account_number !== undefined) set.account_number_last4 = last4Of(patch.account_number)
    if (patch.opening_balance !== undefined) {
      const r = parseAmount(patch.opening_balance, currencyExponent(row.currency_code))
      if (!r.ok) throw validation('opening_balance', `${r.message} (${row.currency_code})`)
      if (r.minor !== Number(row.opening_balance)) set.opening_balance = r.minor
    }
    if (patch.opening_balance_date !== undefined && patch.opening_balance_date !== row.opening_balance_date)
      set.opening_balance_date = patch.opening_balance_date
    if (set.opening_balance !== undefined || set.opening_balance_date !== undefined || patch.opening_exchange_rate !== undefined) {
      const next = { ...row, ...set, opening_balance: Number(set.opening_balance ?? row.opening_balance) }
      const was = { rate: row.opening_exchange_rate, date: row.opening_exchange_rate_date, opening_balance_date: row.opening_balance_date }
      const base = await baseCurrency(store, companyId, trx)
      const rate = await openingRateOf(trx, companyId, base, next, patch.opening_exchange_rate, now, was)
      if (rate.rate !== row.opening_exchange_rate) set.opening_exchange_rate = rate.rate
      if (rate.date !== row.opening_exchange_rate_date) set.opening_exchange_rate_date = rate.date
    }
    if (Object.keys(set).length === 0) return
    if (set.opening_balance !== undefined || set.opening_balance_date !== undefined || set.opening_exchange_rate !== undefined)
      await checkOpeningChange(store, trx, row, set)
    if (set.name !== undefined) await refuseTakenName(store, trx, companyId, set.name, row.id)
    await trx
      .updateTable('bank_accounts')
      .set({ ...set, updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .execute()
    const after = await findBankAccount(store, companyId, id, trx)
    const before = toBankAccount(row)
    const account = toBankAccount(after, (await movements(store, companyId, [after], trx)).get(after.key))
    const changes: Record<string, { before: unknown; after: unknown }> = {}
    for (const f of AUDITED) if (before[f] !== account[f]) changes[f] = { before: before[f], after: account[f] }
    // The rate as stored, every digit: reports as they stood convert at it again.
    delete changes.opening_exchange_rate
    if (row.opening_exchange_rate !== after.opening_exchange_rate)
      changes.opening_exchange_rate = { before: row.opening_exchange_rate, after: after.opening_exchange_rate }
    if (Object.keys(changes).length > 0)
      await store.writes.appendAudit(trx, [
        {
          company_id: companyId,
          transaction_id: row.id,
          actor: actorId(actor),
          action: ACCOUNT_UPDATE,
          changes: JSON.stringify(changes),
          created_at: now.toISOString(),
        },
      ])
    await recordEvents(store, trx, [eventRow(actor, 'bank_account.updated', row.id, { ...account, changed_fields: Object.keys(set) }, now)])
  })
  return getBankAccount(store, companyId, id)
}

/** The account, locked for this transaction (PostgreSQL; SQLite's writers take turns already). */
async function lockAccount(store: Store, trx: Kysely<Db>, companyId: string, id: string): Promise<BankAccountRow> {
  if (!store.sql.rowLocks) return findBankAccount(store, companyId, id, trx)
  const row = await trx
    .selectFrom('bank_accounts')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .forUpdate()
    .executeTakeFirst()
  if (!row) return findBankAccount(store, companyId, id, trx)
  return row
}

/** The account's first non-void transaction dated in [from, before), or undefined. */
async function firstBetween(store: Store, trx: Kysely<Db>, accountKey: number, from: string | null, before: string) {
  let q = trx
    .selectFrom('transactions')
    .selectAll()
    .where('account_key', '=', accountKey)
    .where('transaction_date', '<', before)
    .where('status', '!=', 'void')
  if (from !== null) q = q.where('transaction_date', '>=', from)
  const rows = await q.orderBy('transaction_date', 'asc').orderBy('seq', 'asc').limit(1).execute()
  return (await store.tx.decode(trx, rows)).at(0)
}

/**
 * A new opening balance or date (in `set`) is refused:
 * - when it would move a closed month's figures: the old or the new opening date on or before the
 *   lock date, or no opening date (the balance then counts in every month); unless nothing moves,
 *   an opening balance of 0 before and after that holds no transaction;
 * - when the date moves past a transaction of the account (it would then be dated before it).
 */
async function checkOpeningChange(store: Store, trx: Kysely<Db>, row: BankAccountRow, set: Partial<BankAccountRow>): Promise<void> {
  const oldDate = row.opening_balance_date
  const newDate = set.opening_balance_date !== undefined ? set.opening_balance_date : oldDate
  const path =
    set.opening_balance_date !== undefined
      ? 'opening_balance_date'
      : set.opening_balance !== undefined
        ? 'opening_balance'
        : 'opening_exchange_rate'
  if (newDate !== null && (oldDate === null || newDate > oldDate)) {
    // Those before the old date, written before the rule, the opening balance holds already.
    const first = await firstBetween(store, trx, row.key, oldDate, newDate)
    if (first)
      throw validation(
        'opening_balance_date',
        `bank account "${row.name}" has a transaction dated ${first.transaction_date}, before ${newDate} ("${first.description}", ${first.id}): no transaction may be dated before the opening date, so it can move to ${first.transaction_date} at the latest (or move that transaction first)`,
      )
  }
  const lockDate = await lockDateOf(trx, row.company_id)
  if (lockDate === null) return
  const closed = (d: string | null) => d === null || d <= lockDate
  if (!closed(oldDate) && !closed(newDate)) return
  const newOpening = set.opening_balance ?? Number(row.opening_balance)
  const dates = [oldDate, newDate].filter((d): d is string => d !== null)
  const holds = dates.length > 0 && (await firstBetween(store, trx, row.key, null, dates.sort().at(-1)!)) !== undefined
  if (Number(row.opening_balance) === 0 && newOpening === 0 && !holds) return
  const what = `bank account "${row.name}"`
  if (newDate !== null && newDate <= lockDate) throw periodLocked(lockDate, newDate, `the opening date ${newDate} of ${what}`, path)
  if (oldDate !== null) throw periodLocked(lockDate, oldDate, `the opening date ${oldDate} of ${what}`, path)
  const message = `${what} has no opening date, so its opening balance counts in every month, closed ones too: it and its date cannot change while the lock date is ${lockDate} (finctl close reopen MONTH --reason TEXT, of the first closed month, reopens them)`
  throw new AppError('period_locked', message, { details: [{ path, message: `the lock date is ${lockDate}` }] })
}
