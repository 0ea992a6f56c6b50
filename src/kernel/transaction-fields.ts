/**
 * A transaction's columns, once and without zod: each value as finctl's domain reads it, in the
 * order the store keeps them (its inserts and a closed month's row hashes follow that order). The
 * fields the API answers (`TRANSACTION_FIELDS`, which the service's schema is checked against by the
 * compiler, `--json FIELDS` offers and the audit records), the store's table (`TransactionsTable`
 * in store/schema.ts) and the codec's rows (`TransactionRow`) are derived from it: a column added
 * here is a compile error in the codec until it is read and written.
 */
interface Column {
  /** The value as the domain reads it: a string or a number. */
  readonly value: 'text' | 'number'
  /** It may be null. */
  readonly nullable?: true
  /** A new row may leave it out (null then). */
  readonly optional?: true
  /** Its place among the fields the API answers (0 first); none: the API does not answer it. */
  readonly api?: number
  /** `database`: the database's own row number (seq); `account`: not stored, the id of account_key's account. */
  readonly from?: 'database' | 'account'
}

export const TRANSACTION_COLUMNS = {
  /** The row's key inside the database: the tie-breaker of sorts and keyset pages. */
  seq: { value: 'number', from: 'database' },
  id: { value: 'text', api: 0 },
  company_key: { value: 'number' },
  account_key: { value: 'number' },
  bank_account_id: { value: 'text', api: 17, from: 'account' },
  bank_statement_id: { value: 'text', nullable: true, api: 18 },
  transaction_date: { value: 'text', api: 1 },
  posted_date: { value: 'text', api: 2 },
  description: { value: 'text', api: 3 },
  original_description: { value: 'text', api: 4 },
  amount: { value: 'number', api: 5 },
  currency_code: { value: 'text', api: 6 },
  exchange_rate: { value: 'text', api: 7 },
  base_amount: { value: 'number' },
  category: { value: 'text', nullable: true, api: 9 },
  accounting_category: { value: 'text', nullable: true, api: 10 },
  cash_flow_category: { value: 'text', nullable: true, api: 11 },
  merchant_name: { value: 'text', nullable: true, api: 12 },
  status: { value: 'text', api: 13 },
  /** 0 or 1 (the API answers a boolean). */
  is_reconciled: { value: 'number', api: 14 },
  ai_confidence_score: { value: 'number', nullable: true, api: 15 },
  /** JSON text (the API answers an array). */
  tags: { value: 'text', api: 16 },
  created_at: { value: 'text', api: 19 },
  updated_at: { value: 'text', api: 20 },
  /** Identity of an imported row (unique per account). */
  import_ref: { value: 'text', nullable: true, optional: true },
  /** Identity of the statement line it came from or was reconciled with (unique per account). */
  statement_ref: { value: 'text', nullable: true, optional: true },
  /** `key:ID` or `user:ID`; null for rows created before creators were recorded. */
  created_by: { value: 'text', nullable: true, optional: true },
  /** `create`, `batch_create` or `statement_import`; null as for created_by. */
  created_via: { value: 'text', nullable: true, optional: true },
  /** The date of the exchange_rates rate it was converted at; null when the rate was given or is 1. */
  exchange_rate_date: { value: 'text', nullable: true, optional: true, api: 8 },
} as const satisfies Record<string, Column>

type Columns = typeof TRANSACTION_COLUMNS
export type TransactionColumn = keyof Columns

/** The columns the store keeps, each in its own place (not seq, the database's, nor bank_account_id). */
export type StoredTransactionColumn = { [K in TransactionColumn]: Columns[K] extends { from: string } ? never : K }[TransactionColumn]

/** A transaction's values as the domain reads them: every column whole. */
export type TransactionColumnValues = {
  -readonly [K in TransactionColumn]:
    | (Columns[K]['value'] extends 'number' ? number : string)
    | (Columns[K] extends { nullable: true } ? null : never)
}

/** The columns a new row may leave out. */
export type OptionalTransactionColumn = { [K in TransactionColumn]: Columns[K] extends { optional: true } ? K : never }[TransactionColumn]

const NAMES = Object.keys(TRANSACTION_COLUMNS) as TransactionColumn[]
const column = (name: TransactionColumn): Column => TRANSACTION_COLUMNS[name]

/** The stored columns in their order: the store's inserts write them so, a closed month's row hashes cover them so. */
export const STORED_TRANSACTION_COLUMNS = NAMES.filter((n): n is StoredTransactionColumn => column(n).from === undefined)

export type TransactionField = { [K in TransactionColumn]: Columns[K] extends { api: number } ? K : never }[TransactionColumn]

/** The fields of a transaction as the API answers it, in its order. */
export const TRANSACTION_FIELDS: readonly TransactionField[] = NAMES.filter((n): n is TransactionField => column(n).api !== undefined).sort(
  (a, b) => (column(a).api as number) - (column(b).api as number),
)

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
