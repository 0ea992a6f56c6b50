/** Table columns per resource, shared by every command that prints them. */
import type { BankAccount, Transaction } from '../domain/schemas.js'
import type { ApiKey } from '../domain/api-keys/schemas.js'
import { showAmount } from './money.js'
import type { Column } from './output.js'

/**
 * An amount: "-149.99 USD" in a table; in CSV the plain number and a `currency` column beside it,
 * as a spreadsheet wants them (and as the reports' CSV has them).
 */
export function amountColumn<T>(header: string, amount: (row: T) => number, currency: (row: T) => string): Column<T> {
  return {
    header,
    value: (r) => showAmount(amount(r), currency(r), { code: true }),
    align: 'right',
    csv: [
      { header, value: (r) => showAmount(amount(r), currency(r)) },
      { header: 'currency', value: currency },
    ],
  }
}

export const keyColumns: Column<ApiKey>[] = [
  { header: 'id', value: (k) => k.id },
  { header: 'name', value: (k) => k.name },
  { header: 'prefix', value: (k) => k.key_prefix },
  { header: 'scopes', value: (k) => k.scopes.join(',') },
  { header: 'status', value: (k) => keyStatus(k) },
  // A rolled pair, by the first 8 characters of the other key's id.
  {
    header: 'rolled',
    value: (k) => (k.rolled_to ? `to ${k.rolled_to.slice(0, 8)}` : k.rolled_from ? `from ${k.rolled_from.slice(0, 8)}` : ''),
  },
  { header: 'usage', value: (k) => k.usage_count, align: 'right' },
  { header: 'last used', value: (k) => k.last_used_at ?? '' },
  { header: 'expires', value: (k) => k.expires_at ?? '' },
]

export function keyStatus(k: ApiKey, now = new Date()): string {
  if (k.revoked_at) return 'revoked'
  if (k.expires_at && k.expires_at <= now.toISOString()) return 'expired'
  if (k.grace_ends_at) return `rolling until ${k.grace_ends_at}`
  return k.is_active ? 'active' : 'inactive'
}

export const accountColumns: Column<BankAccount>[] = [
  { header: 'id', value: (a) => a.id },
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

export const transactionColumns: Column<Transaction>[] = [
  { header: 'id', value: (t) => t.id },
  { header: 'date', value: (t) => t.transaction_date },
  { header: 'description', value: (t) => t.description },
  amountColumn<Transaction>(
    'amount',
    (t) => t.amount,
    (t) => t.currency_code,
  ),
  { header: 'category', value: (t) => t.category ?? '' },
  { header: 'status', value: (t) => t.status },
]
