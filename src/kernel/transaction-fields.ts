/**
 * The fields of a transaction as the API answers it, once and without zod: the service's schema is
 * checked against this list by the compiler, `--json FIELDS` offers it, the audit records it.
 */
export const TRANSACTION_FIELDS = [
  'id',
  'transaction_date',
  'posted_date',
  'description',
  'original_description',
  'amount',
  'currency_code',
  'exchange_rate',
  'exchange_rate_date',
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'status',
  'is_reconciled',
  'ai_confidence_score',
  'tags',
  'bank_account_id',
  'bank_statement_id',
  'created_at',
  'updated_at',
] as const

export type TransactionField = (typeof TRANSACTION_FIELDS)[number]

type Audited = Exclude<TransactionField, 'id' | 'created_at' | 'updated_at'>

/**
 * What a transaction's audit entry records a change of: every field but its identity and
 * timestamps, the account first (the order entries have always had their changes in).
 */
export const AUDITED_TRANSACTION_FIELDS: readonly Audited[] = [
  'bank_account_id',
  ...TRANSACTION_FIELDS.filter(
    (f): f is Exclude<Audited, 'bank_account_id'> => f !== 'id' && f !== 'created_at' && f !== 'updated_at' && f !== 'bank_account_id',
  ),
]
