/** Table columns per resource, shared by every command that prints them. */
import type { BankAccount, Transaction } from '../domain/schemas.js'
import type { ApiKey } from '../domain/api-keys/schemas.js'
import { ListedTransaction } from '../domain/transaction-rows.js'
import { showMinor } from './money.js'
import type { Column } from './output.js'
import { accountNames, shortId } from './short-ids.js'

/** An id column: whole in csv, JSON and tab-separated rows; its last 8 characters in a terminal's table (short-ids.ts); never left out. */
export function idColumn<T>(id: (row: T) => string): Column<T> {
  return { header: 'id', value: id, tty: (r) => shortId(id(r)), keep: true }
}

/**
 * An amount: "-1,149.99 USD" in a terminal's table (grouped by the locale), "-1149.99 USD" in
 * tab-separated rows; in CSV the plain number and a `currency` column beside it,
 * as a spreadsheet wants them (and as the reports' CSV has them).
 */
export function amountColumn<T>(header: string, amount: (row: T) => number, currency: (row: T) => string): Column<T> {
  // The minor units a listed transaction keeps beside its amount (domain/transaction-rows.ts):
  // showMinor writes the amount from them; any other row's number is read as showAmount does.
  const minor = (r: T) => ListedTransaction.minorUnits(r as object)
  return {
    header,
    value: (r) => showMinor(minor(r), amount(r), currency(r), { code: true }),
    tty: (r) => showMinor(minor(r), amount(r), currency(r), { group: true, code: true }),
    align: 'right',
    negative: (r) => amount(r) < 0,
    csv: [
      { header, value: (r) => showMinor(minor(r), amount(r), currency(r)) },
      { header: 'currency', value: currency },
    ],
  }
}

export const keyColumns: Column<ApiKey>[] = [
  idColumn((k) => k.id),
  { header: 'name', value: (k) => k.name },
  { header: 'prefix', value: (k) => k.key_prefix, drop: 3 },
  // Spaced on a terminal, so that a narrow column wraps between scopes.
  { header: 'scopes', value: (k) => k.scopes.join(','), tty: (k) => k.scopes.join(', ') },
  { header: 'status', value: (k) => keyStatus(k) },
  // An agent's key: its writes are proposals (docs/agents.md).
  { header: 'agent', value: (k) => (k.agent ? 'agent' : '') },
  // A rolled pair, by the other key's short id.
  {
    header: 'rolled',
    value: (k) => (k.rolled_to ? `to ${shortId(k.rolled_to)}` : k.rolled_from ? `from ${shortId(k.rolled_from)}` : ''),
  },
  { header: 'usage', value: (k) => k.usage_count, align: 'right', drop: 2 },
  { header: 'last used', value: (k) => k.last_used_at ?? '', whole: true, drop: 1 },
  { header: 'expires', value: (k) => k.expires_at ?? '', whole: true },
]

export function keyStatus(k: ApiKey, now = new Date()): string {
  if (k.revoked_at) return 'revoked'
  if (k.expires_at && k.expires_at <= now.toISOString()) return 'expired'
  if (k.grace_ends_at) return `rolling until ${k.grace_ends_at}`
  return k.is_active ? 'active' : 'inactive'
}

export const accountColumns: Column<BankAccount>[] = [
  idColumn((a) => a.id),
  { header: 'name', value: (a) => a.name },
  { header: 'type', value: (a) => a.account_type },
  { header: 'institution', value: (a) => a.institution_name ?? '' },
  { header: 'number', value: (a) => (a.account_number_last4 ? `…${a.account_number_last4}` : '') },
  { header: 'status', value: (a) => a.status },
  amountColumn<BankAccount>(
    'balance',
    (a) => a.current_balance,
    (a) => a.currency_code,
  ),
]

/**
 * Transactions. On a narrow terminal the id, the date, the description (the widest share) and the
 * amount stay; the status is left out first, then the category and the account (named under the
 * table). The account is its name (its id in CSV's `account_id` beside it).
 */
export const transactionColumns: Column<Transaction>[] = [
  idColumn((t) => t.id),
  { header: 'date', value: (t) => t.transaction_date },
  { header: 'description', value: (t) => t.description, min: 14, wide: true },
  amountColumn<Transaction>(
    'amount',
    (t) => t.amount,
    (t) => t.currency_code,
  ),
  {
    header: 'account',
    value: (t) => accountNames.get(t.bank_account_id) ?? t.bank_account_id,
    tty: (t) => accountNames.get(t.bank_account_id) ?? shortId(t.bank_account_id),
    csv: [
      { header: 'account', value: (t) => accountNames.get(t.bank_account_id) ?? '' },
      { header: 'account_id', value: (t) => t.bank_account_id },
    ],
    drop: 1,
    min: 6,
  },
  { header: 'category', value: (t) => t.category ?? '', drop: 2, min: 7 },
  { header: 'status', value: (t) => t.status, drop: 3 },
]
