/** Table columns per resource, shared by every command that prints them. */
import type { ApiKey, BankAccount, Transaction } from '../domain/schemas.js'
import { formatAmount } from './format.js'
import type { Column } from './output.js'

export const keyColumns: Column<ApiKey>[] = [
  { header: 'id', value: (k) => k.id },
  { header: 'name', value: (k) => k.name },
  { header: 'prefix', value: (k) => k.key_prefix },
  { header: 'scopes', value: (k) => k.scopes.join(',') },
  { header: 'status', value: (k) => keyStatus(k) },
  { header: 'usage', value: (k) => k.usage_count, align: 'right' },
  { header: 'last used', value: (k) => k.last_used_at ?? '' },
  { header: 'expires', value: (k) => k.expires_at ?? '' },
]

export function keyStatus(k: ApiKey, now = new Date()): string {
  if (k.revoked_at) return 'revoked'
  if (k.expires_at && k.expires_at <= now.toISOString()) return 'expired'
  return k.is_active ? 'active' : 'inactive'
}

export const accountColumns: Column<BankAccount>[] = [
  { header: 'id', value: (a) => a.id },
  { header: 'name', value: (a) => a.name },
  { header: 'type', value: (a) => a.account_type },
  { header: 'institution', value: (a) => a.institution_name ?? '' },
  { header: 'number', value: (a) => (a.account_number_last4 ? `…${a.account_number_last4}` : '') },
  { header: 'status', value: (a) => a.status },
  { header: 'balance', value: (a) => formatAmount(a.current_balance, a.currency_code), align: 'right' },
]

export const transactionColumns: Column<Transaction>[] = [
  { header: 'id', value: (t) => t.id },
  { header: 'date', value: (t) => t.transaction_date },
  { header: 'description', value: (t) => t.description },
  { header: 'amount', value: (t) => formatAmount(t.amount, t.currency_code), align: 'right' },
  { header: 'category', value: (t) => t.category ?? '' },
  { header: 'status', value: (t) => t.status },
]
