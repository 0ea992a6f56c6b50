/**
 * The one table of a transaction's columns (src/kernel/transaction-fields.ts): the API's fields
 * and the store's columns are derived from it, each in an order that must not move.
 */
import { describe, expect, it } from 'vitest'
import {
  AUDITED_TRANSACTION_FIELDS,
  STORED_TRANSACTION_COLUMNS,
  TRANSACTION_COLUMNS,
  TRANSACTION_FIELDS,
} from '../../src/kernel/transaction-fields.js'

describe('the transaction columns', () => {
  it('gives each field the API answers a place of its own, 0 to n-1', () => {
    const places = Object.values(TRANSACTION_COLUMNS).flatMap((c) => ('api' in c ? [c.api] : []))
    expect([...places].sort((a, b) => a - b)).toEqual(places.map((_, i) => i))
    expect(TRANSACTION_FIELDS).toHaveLength(places.length)
  })

  it('answers the API fields in the order of the Transaction schema, the audit in its own', () => {
    expect(TRANSACTION_FIELDS.slice(0, 9)).toEqual([
      'id',
      'transaction_date',
      'posted_date',
      'description',
      'original_description',
      'amount',
      'currency_code',
      'exchange_rate',
      'exchange_rate_date',
    ])
    expect(TRANSACTION_FIELDS.slice(-4)).toEqual(['bank_account_id', 'bank_statement_id', 'created_at', 'updated_at'])
    expect(AUDITED_TRANSACTION_FIELDS[0]).toBe('bank_account_id')
    expect(AUDITED_TRANSACTION_FIELDS).not.toContain('id')
    expect(AUDITED_TRANSACTION_FIELDS).toHaveLength(TRANSACTION_FIELDS.length - 3)
  })

  // A closed month's row hashes (domain/closing/contents.ts) cover the stored columns in this
  // order: another order would fail `verify --close` of every month closed before.
  it('keeps the stored columns in the order closed months were hashed in', () => {
    expect(STORED_TRANSACTION_COLUMNS).toEqual([
      'id',
      'company_key',
      'account_key',
      'bank_statement_id',
      'transaction_date',
      'posted_date',
      'description',
      'original_description',
      'amount',
      'currency_code',
      'exchange_rate',
      'base_amount',
      'category',
      'accounting_category',
      'cash_flow_category',
      'merchant_name',
      'status',
      'is_reconciled',
      'ai_confidence_score',
      'tags',
      'created_at',
      'updated_at',
      'import_ref',
      'statement_ref',
      'created_by',
      'created_via',
      'exchange_rate_date',
    ])
  })
})
