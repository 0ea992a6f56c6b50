/**
 * The columns of the csv and xlsx exports: `tx list --output csv`'s columns first (id, date,
 * description, amount, currency, category, status), then every other field of a transaction. Each
 * column gives a typed value (a date, an amount in minor units of a currency, a number, text); the
 * CSV writes its text, the workbook its type.
 */
import type { ExportTransaction } from '../schemas.js'
import { minorOf } from './amounts.js'

export type Cell =
  | { kind: 'text'; value: string }
  | { kind: 'date'; value: string }
  | { kind: 'amount'; minor: number; currency: string }
  | { kind: 'number'; value: number; text: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'empty' }

export interface RowContext {
  base: string
  accountName(id: string): string
}

const text = (v: string | null | undefined): Cell => (v === null || v === undefined ? { kind: 'empty' } : { kind: 'text', value: v })
const date = (v: string | null): Cell => (v ? { kind: 'date', value: v } : { kind: 'empty' })

export const COLUMNS: Array<{ header: string; width: number; cell: (t: ExportTransaction, c: RowContext) => Cell }> = [
  { header: 'id', width: 38, cell: (t) => text(t.id) },
  { header: 'date', width: 12, cell: (t) => date(t.transaction_date) },
  { header: 'description', width: 40, cell: (t) => text(t.description) },
  { header: 'amount', width: 14, cell: (t) => ({ kind: 'amount', minor: minorOf(t.amount, t.currency_code), currency: t.currency_code }) },
  { header: 'currency', width: 9, cell: (t) => text(t.currency_code) },
  { header: 'category', width: 20, cell: (t) => text(t.category) },
  { header: 'status', width: 9, cell: (t) => text(t.status) },
  { header: 'posted_date', width: 12, cell: (t) => date(t.posted_date) },
  { header: 'merchant', width: 24, cell: (t) => text(t.merchant_name) },
  { header: 'accounting_category', width: 20, cell: (t) => text(t.accounting_category) },
  { header: 'cash_flow_category', width: 18, cell: (t) => text(t.cash_flow_category) },
  {
    header: 'exchange_rate',
    width: 12,
    cell: (t) => ({ kind: 'number', value: Number(t.exchange_rate_exact), text: t.exchange_rate_exact }),
  },
  { header: 'exchange_rate_date', width: 12, cell: (t) => date(t.exchange_rate_date) },
  { header: 'base_amount', width: 14, cell: (t, c) => ({ kind: 'amount', minor: minorOf(t.base_amount, c.base), currency: c.base }) },
  { header: 'base_currency', width: 9, cell: (_t, c) => text(c.base) },
  { header: 'reconciled', width: 10, cell: (t) => ({ kind: 'bool', value: t.is_reconciled }) },
  { header: 'tags', width: 20, cell: (t) => text(t.tags.join(',')) },
  { header: 'bank_account', width: 20, cell: (t, c) => text(c.accountName(t.bank_account_id)) },
  { header: 'bank_account_id', width: 38, cell: (t) => text(t.bank_account_id) },
  { header: 'bank_statement_id', width: 38, cell: (t) => text(t.bank_statement_id) },
  { header: 'original_description', width: 40, cell: (t) => text(t.original_description) },
  {
    header: 'ai_confidence_score',
    width: 10,
    cell: (t) =>
      t.ai_confidence_score === null
        ? { kind: 'empty' }
        : { kind: 'number', value: t.ai_confidence_score, text: String(t.ai_confidence_score) },
  },
  { header: 'created_at', width: 26, cell: (t) => text(t.created_at) },
  { header: 'updated_at', width: 26, cell: (t) => text(t.updated_at) },
]
