/**
 * Request and response schemas: one source for validation, types and the OpenAPI document.
 * Field names follow spec/service-interface.md section 2 and API.md.
 */
import { z } from '@hono/zod-openapi'
import { isCurrency } from './currencies.js'

export const API_KEY_SCOPES = ['read', 'write', 'transactions'] as const
export const JWT_SCOPES = ['read', 'write', 'transactions', 'api_keys'] as const
export type Scope = (typeof JWT_SCOPES)[number]

export const ACCOUNTING_CATEGORIES = [
  'revenue', 'cost_of_goods_sold', 'operating_expenses', 'payroll', 'taxes', 'interest', 'capital_expenditure',
  'loan', 'equity', 'transfer', 'other_income', 'other_expense', 'uncategorized',
] as const
export const CASH_FLOW_CATEGORIES = ['operations', 'investing', 'financing', 'transfer'] as const
export const TRANSACTION_STATUSES = ['pending', 'posted', 'void'] as const
export const ACCOUNT_TYPES = ['checking', 'savings', 'credit_card', 'loan', 'investment', 'cash', 'other'] as const
export const ACCOUNT_STATUSES = ['active', 'inactive', 'closed'] as const

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

export const IsoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD').openapi({ format: 'date', example: '2026-11-22' })
export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
export const Uuid = z.uuid({ message: 'must be a UUID' })
export const CurrencyCode = z
  .string()
  .refine((s) => isCurrency(s), 'must be an ISO 4217 currency code such as USD or EUR')
  .openapi({ example: 'USD' })
/** Amounts are accepted as JSON numbers or decimal strings; parsed to minor units exactly. */
export const AmountInput = z.union([z.number(), z.string().max(40)]).openapi({ example: -149.99 })
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`)

// ---- errors and envelopes ------------------------------------------------------------------

export const ErrorBody = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .openapi('Error')

export const Pagination = z
  .object({ limit: z.number().int(), next_cursor: z.string().nullable(), has_more: z.boolean(), total: z.number().int() })
  .openapi('Pagination')

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data })
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: Pagination })
}

// ---- auth -----------------------------------------------------------------------------------

export const TokenRequest = z
  .object({ email: z.string().trim().min(1, 'is required').max(320), password: z.string().min(1, 'is required').max(1024) })
  .openapi('TokenRequest')

export const TokenResponse = z
  .object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int(), scopes: z.array(z.string()) })
  .openapi('TokenResponse')

// ---- API keys -------------------------------------------------------------------------------

export const ApiScope = z.enum(API_KEY_SCOPES).openapi('ApiScope')

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    key_prefix: z.string(),
    scopes: z.array(ApiScope),
    description: z.string(),
    last_used_at: Timestamp.nullable(),
    usage_count: z.number().int(),
    rate_limit_per_minute: z.number().int(),
    rate_limit_per_day: z.number().int(),
    is_active: z.boolean(),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    created_at: Timestamp,
    created_by: z.string(),
  })
  .openapi('ApiKey')
export type ApiKey = z.infer<typeof ApiKey>

export const CreatedApiKey = ApiKey.extend({ key: z.string() }).openapi('CreatedApiKey')
export type CreatedApiKey = z.infer<typeof CreatedApiKey>

export const CreateApiKeyRequest = z
  .object({
    name: text(100).min(1, 'is required'),
    scopes: z.array(ApiScope).min(1, 'give at least one scope').max(3),
    description: text(500).optional(),
    expires_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).nullable().optional(),
    rate_limit_per_minute: z.number().int().min(1).max(1_000_000).optional(),
    rate_limit_per_day: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict()
  .openapi('CreateApiKeyRequest')
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>

export const KeyListQuery = z.object({
  status: z.enum(['active', 'revoked', 'expired', 'all']).optional(),
})

export const UsageQuery = z.object({
  key_id: z.string().optional(),
  recent: z.coerce.number().int().min(1).max(100).optional(),
})

export const RecentRequest = z.object({
  endpoint: z.string(),
  method: z.string(),
  status_code: z.number().int(),
  response_time_ms: z.number().int(),
  created_at: Timestamp,
})

export const UsageStats = z
  .object({
    total_requests: z.number().int(),
    last_used_at: Timestamp.nullable(),
    last_24h_requests: z.number().int(),
    avg_response_time_ms: z.number().int(),
    endpoints: z.record(z.string(), z.number().int()),
    status_codes: z.record(z.string(), z.number().int()),
    recent_requests: z.array(RecentRequest),
  })
  .openapi('UsageStats')
export type UsageStats = z.infer<typeof UsageStats>

// ---- bank accounts --------------------------------------------------------------------------

export const BankAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    institution_name: z.string().nullable(),
    account_type: z.enum(ACCOUNT_TYPES),
    account_number_last4: z.string().nullable(),
    currency_code: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    opening_balance: z.number(),
    opening_balance_date: z.string().nullable(),
    current_balance: z.number(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('BankAccount')
export type BankAccount = z.infer<typeof BankAccount>

export const CreateBankAccountRequest = z
  .object({
    name: text(200).min(1, 'is required'),
    account_type: z.enum(ACCOUNT_TYPES),
    currency_code: CurrencyCode,
    institution_name: text(200).optional(),
    account_number: z.string().trim().regex(/^[0-9A-Za-z -]{4,40}$/, 'must be 4 to 40 letters or digits').optional(),
    opening_balance: AmountInput.optional(),
    opening_balance_date: IsoDate.optional(),
  })
  .strict()
  .openapi('CreateBankAccountRequest')
export type CreateBankAccountRequest = z.infer<typeof CreateBankAccountRequest>

export const BankAccountListQuery = z.object({
  status: z.enum(ACCOUNT_STATUSES).optional(),
  account_type: z.enum(ACCOUNT_TYPES).optional(),
})

// ---- transactions ---------------------------------------------------------------------------

export const Transaction = z
  .object({
    id: z.string(),
    transaction_date: IsoDate,
    posted_date: IsoDate,
    description: z.string(),
    original_description: z.string(),
    amount: z.number(),
    currency_code: z.string(),
    exchange_rate: z.number(),
    category: z.string().nullable(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).nullable(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).nullable(),
    merchant_name: z.string().nullable(),
    status: z.enum(TRANSACTION_STATUSES),
    is_reconciled: z.boolean(),
    ai_confidence_score: z.number().nullable(),
    tags: z.array(z.string()),
    bank_account_id: z.string(),
    bank_statement_id: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('Transaction')
export type Transaction = z.infer<typeof Transaction>

export const Tags = z.array(z.string().trim().min(1, 'must not be empty').max(50)).max(50)

export const CreateTransactionRequest = z
  .object({
    bank_account_id: Uuid,
    transaction_date: IsoDate,
    description: text(1000).min(1, 'is required'),
    amount: AmountInput,
    currency_code: CurrencyCode.optional(),
    posted_date: IsoDate.optional(),
    original_description: text(1000).optional(),
    exchange_rate: AmountInput.optional(),
    category: text(100).optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
    merchant_name: text(200).optional(),
    tags: Tags.optional(),
    import_ref: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'must be 1 to 64 letters, digits or . _ : -')
      .optional()
      .openapi({ description: "an imported row's identity: a second create with the same import_ref on the same account creates nothing" }),
  })
  .strict()
  .openapi('CreateTransactionRequest')
export type CreateTransactionRequest = z.infer<typeof CreateTransactionRequest>

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) })

export const Company = z
  .object({ id: z.string(), name: z.string(), base_currency: z.string(), created_at: Timestamp })
  .openapi('Company')
export type Company = z.infer<typeof Company>

export const Health = z.object({ status: z.literal('ok'), version: z.string(), store: z.enum(['sqlite', 'postgres']) })

// ---- transactions: list, detail, update, bulk, batch ------------------------------------------

const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true')

export const TransactionListQuery = z
  .object({
    bank_account_id: z.string().optional(),
    statement_id: z.string().optional(),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
    status: z.enum(TRANSACTION_STATUSES).optional(),
    category: z.string().max(100).optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
    is_reconciled: boolQuery.optional(),
    min_amount: z.string().max(40).optional(),
    max_amount: z.string().max(40).optional(),
    tag: z.string().max(50).optional(),
    q: z.string().max(200).optional(),
    sort: z.enum(['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at']).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict()
export type TransactionListQuery = z.infer<typeof TransactionListQuery>

/** Fields the service assigns: refused in an update with a 400 that names them. */
export const READ_ONLY_TRANSACTION_FIELDS = ['id', 'created_at', 'updated_at', 'bank_statement_id', 'original_description', 'ai_confidence_score'] as const

export const UpdateTransactionRequest = z
  .object({
    bank_account_id: Uuid.optional(),
    transaction_date: IsoDate.optional(),
    posted_date: IsoDate.optional(),
    description: text(1000).min(1, 'must not be empty').optional(),
    amount: AmountInput.optional(),
    currency_code: CurrencyCode.optional(),
    exchange_rate: AmountInput.optional(),
    category: text(100).nullable().optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).nullable().optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).nullable().optional(),
    merchant_name: text(200).nullable().optional(),
    status: z.enum(TRANSACTION_STATUSES).optional(),
    is_reconciled: z.boolean().optional(),
    tags: Tags.optional(),
  })
  .strict()
  .openapi('UpdateTransactionRequest')
export type UpdateTransactionRequest = z.infer<typeof UpdateTransactionRequest>

export const BulkUpdateRequest = z
  .object({
    transaction_ids: z.array(Uuid).min(1, 'give at least one id').max(1000, 'at most 1,000 ids per request'),
    updates: z
      .object({
        category: text(100).nullable().optional(),
        accounting_category: z.enum(ACCOUNTING_CATEGORIES).nullable().optional(),
        cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).nullable().optional(),
        merchant_name: text(200).nullable().optional(),
        status: z.enum(TRANSACTION_STATUSES).optional(),
        is_reconciled: z.boolean().optional(),
        tags: Tags.optional(),
        add_tags: Tags.optional(),
        remove_tags: Tags.optional(),
      })
      .strict()
      .refine((u) => Object.keys(u).length > 0, 'give at least one field to update'),
  })
  .strict()
  .openapi('BulkUpdateRequest')
export type BulkUpdateRequest = z.infer<typeof BulkUpdateRequest>

export const BulkUpdateResponse = z.object({ updated: z.number().int(), transactions: z.array(Transaction) })

export const MAX_BATCH = 5000
export const BatchCreateRequest = z
  .object({ transactions: z.array(z.unknown()).min(1, 'give at least one transaction') })
  .strict()
  .openapi('BatchCreateRequest')

export const BatchError = z.object({
  index: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
})
export const BatchDuplicate = z.object({ index: z.number().int(), id: z.string(), import_ref: z.string() })
export const BatchCreateResponse = z.object({ created: z.array(Transaction), errors: z.array(BatchError), duplicates: z.array(BatchDuplicate) })
export type BatchCreateResponse = z.infer<typeof BatchCreateResponse>

export const AuditEntry = z.object({
  at: Timestamp,
  actor: z.string(),
  action: z.enum(['create', 'update', 'delete', 'bulk_update', 'batch_create', 'statement_import', 'reconcile']),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
})
export type AuditEntry = z.infer<typeof AuditEntry>

export const TransactionDetail = Transaction.extend({
  bank_account: z.object({ id: z.string(), name: z.string() }),
  statement: z.object({ id: z.string(), file_name: z.string() }).nullable(),
  history: z.array(AuditEntry),
}).openapi('TransactionDetail')
export type TransactionDetail = z.infer<typeof TransactionDetail>

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) })

// ---- bank accounts: update; categories ----------------------------------------------------------

export const UpdateBankAccountRequest = z
  .object({
    name: text(200).min(1, 'must not be empty').optional(),
    institution_name: text(200).nullable().optional(),
    account_type: z.enum(ACCOUNT_TYPES).optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
  })
  .strict()
  .openapi('UpdateBankAccountRequest')
export type UpdateBankAccountRequest = z.infer<typeof UpdateBankAccountRequest>

export const Categories = z
  .object({
    categories: z.array(
      z.object({
        name: z.string(),
        accounting_category: z.string().nullable(),
        cash_flow_category: z.string().nullable(),
        transaction_count: z.number().int(),
      }),
    ),
    accounting_categories: z.array(z.string()),
    cash_flow_categories: z.array(z.string()),
  })
  .openapi('Categories')
export type Categories = z.infer<typeof Categories>
