/**
 * Request and response schemas: one source for validation, types and the OpenAPI document.
 * Field names follow docs/service-interface.md section 2 and docs/api.md. The vocabularies and the
 * common schemas live in modules of their own (loaded without these) and are re-exported here; each
 * aggregate's own schemas are in its folder (api-keys/schemas.ts, rates/schemas.ts, ...).
 */
import { z } from '@hono/zod-openapi'
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES, TRANSACTION_STATUSES } from '../kernel/vocabulary.js'
import type { TransactionField } from '../kernel/transaction-fields.js'
import { AmountInput, CurrencyCode, IsoDate, Timestamp, Uuid, text } from './schema-common.js'

export * from '../kernel/vocabulary.js'
export * from './schema-common.js'

// ---- bank accounts --------------------------------------------------------------------------

export const UnconvertedTransactions = z
  .object({
    currency_code: z.string(),
    count: z.number().int(),
    amount: z.number().openapi({ description: 'their sum, in `currency_code`' }),
  })
  .openapi('UnconvertedTransactions', {
    description:
      "transactions in another currency on an account that is not in the base currency: they have no rate into the account's currency, so the balance leaves them out (docs/money.md)",
  })
export type UnconvertedTransactions = z.infer<typeof UnconvertedTransactions>

export const BankAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    institution_name: z.string().nullable(),
    account_type: z.enum(ACCOUNT_TYPES),
    account_number_last4: z.string().nullable(),
    currency_code: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    opening_balance: z.number().openapi({ description: "the account's balance at the start of opening_balance_date" }),
    opening_balance_date: z.string().nullable().openapi({
      description:
        'the day the opening balance counts from (no transaction may be dated before it); null: it counts from the beginning (docs/money.md)',
    }),
    opening_exchange_rate: z.number().nullable().openapi({
      description:
        "units of the base currency per 1 unit of the account's, fixed when the opening balance was recorded; every report converts the opening balance at it. null: in the base currency, an opening balance of 0, or (an account recorded before migration 0027 with no transaction in its currency) unconverted (docs/money.md)",
    }),
    opening_exchange_rate_date: IsoDate.nullable().openapi({
      description: "the date of the company's rate it was taken from; null when it was given",
    }),
    current_balance: z.number().openapi({
      description:
        "opening_balance plus every transaction that is not void dated on or after opening_balance_date, in the account's currency: one in another currency by its base_amount on an account in the base currency, else left out and listed in unconverted_transactions",
    }),
    unconverted_transactions: z.array(UnconvertedTransactions),
    transactions_before_opening: z.number().int().openapi({
      description:
        'non-void transactions dated before opening_balance_date, written before such dates were refused: the opening balance holds them, so they count only in balances before that date (docs/money.md)',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('BankAccount')
export type BankAccount = z.infer<typeof BankAccount>

const AccountNumber = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z -]{4,40}$/, 'must be 4 to 40 letters or digits')

export const CreateBankAccountRequest = z
  .object({
    name: text(200).min(1, 'is required'),
    account_type: z.enum(ACCOUNT_TYPES),
    currency_code: CurrencyCode,
    institution_name: text(200).optional(),
    account_number: AccountNumber.optional(),
    opening_balance: AmountInput.optional(),
    opening_balance_date: IsoDate.optional().openapi({
      description: 'the day the opening balance counts from; refused (409 period_locked) on or before the lock date',
    }),
    opening_exchange_rate: AmountInput.optional().openapi({
      description:
        "the opening balance's rate into the base currency (base units per 1 unit of the account's); without it, the company's rate of the opening date (or of today without one), as a transaction takes its rate; refused (400) when none is in reach (docs/money.md)",
    }),
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
    exchange_rate_date: IsoDate.nullable().openapi({
      description:
        "the date of the company's rate the amount was converted at (finctl rates); null when the rate was given or the currency is the base",
    }),
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
// The one list of a transaction's fields (src/kernel/transaction-fields.ts) is this schema's keys.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const _fields: SameKeys<keyof Transaction, TransactionField> = true
void _fields

/** Accept what the plausibility rules refuse (plausibility.ts): a date outside the window, an amount of 0. */
const Force = z
  .boolean()
  .optional()
  .openapi({ description: 'true: accept a date outside the date window (default 1970-01-01 to a year after today) or an amount of 0' })

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
    force: Force,
  })
  .strict()
  .openapi('CreateTransactionRequest')
export type CreateTransactionRequest = z.infer<typeof CreateTransactionRequest>

/**
 * The shape of CreateTransactionRequest a review's pending rows are checked against and stored in
 * (parsed: text trimmed). An apply trusts the parse of rows stored under the same shape; raise it with
 * any change of what the schema accepts or how it parses (test/domain/create-request-shape.test.ts).
 */
export const CREATE_REQUEST_SHAPE = 1

export const Company = z
  .object({
    id: z.string(),
    name: z.string(),
    base_currency: z.string(),
    created_at: Timestamp,
    lock_date: z
      .string()
      .nullable()
      .openapi({ description: 'the last day of the last closed month (null: none closed): transactions on or before it cannot change' }),
    pack_public_key: z.string().nullable().optional().openapi({
      description: "the company's Ed25519 public key (raw, base64url) that signs its packs (finctl close pack); null until the first pack",
    }),
  })
  .openapi('Company')
export type Company = z.infer<typeof Company>

// ---- transactions: list, detail, update, bulk, batch ------------------------------------------

export const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true')

/** A part of an id people type (a short id): 6 to 32 hex digits, dashes allowed where the id has them. */
const IdPart = z
  .string()
  .regex(/^[0-9a-fA-F-]{6,36}$/, 'must be 6 to 32 hex digits of an id')
  .refine((v) => v.replaceAll('-', '').length >= 6 && v.replaceAll('-', '').length <= 32, 'must be 6 to 32 hex digits of an id')

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
    id_prefix: IdPart.optional(),
    id_suffix: IdPart.optional(),
    import_batch_id: z.string().max(100).optional(),
    sort: z.enum(['transaction_date', '-transaction_date', 'amount', '-amount', 'created_at', '-created_at']).optional(),
    // Up to 5,000 (as exports): a walk of every page (`tx list --all`) needs fewer requests than at 1,000.
    limit: z.coerce.number().int().min(1).max(5000).optional(),
    cursor: z.string().max(500).optional(),
    include_total: boolQuery.optional(),
    // The page's accounts by name beside it (`account_names`): a table names each row's account.
    include_account_names: boolQuery.optional(),
  })
  .strict()
export type TransactionListQuery = z.infer<typeof TransactionListQuery>

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
    force: Force,
  })
  .strict()
  .openapi('UpdateTransactionRequest')
export type UpdateTransactionRequest = z.infer<typeof UpdateTransactionRequest>

export const BulkUpdateRequest = z
  .object({
    transaction_ids: z.array(Uuid).min(1, 'give at least one id').max(1000, 'at most 1,000 ids per request'),
    // The fields of a single update that labels and states may change, plus tags to add and remove.
    updates: z
      .object({
        ...UpdateTransactionRequest.pick({
          category: true,
          accounting_category: true,
          cash_flow_category: true,
          merchant_name: true,
          status: true,
          is_reconciled: true,
          tags: true,
        }).shape,
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
export type BulkUpdateResponse = z.infer<typeof BulkUpdateResponse>

export const BulkDeleteRequest = z
  .object({ transaction_ids: z.array(Uuid).min(1, 'give at least one id').max(1000, 'at most 1,000 ids per request') })
  .strict()
  .openapi('BulkDeleteRequest')
export type BulkDeleteRequest = z.infer<typeof BulkDeleteRequest>

/** A bulk delete's answer: how many went, and each row as it was. */
/** A document whose link went with a deleted row: the document stays, unlinked (`docs list --unlinked`). */
export const UnlinkedDocument = z.object({ id: z.string(), file_name: z.string(), transaction_id: z.string() })
export const DeletedTransaction = z.object({
  id: z.string(),
  deleted: z.literal(true),
  documents: z.array(UnlinkedDocument).openapi({ description: 'documents that were linked to it: kept, unlinked' }),
})
export type DeletedTransaction = z.infer<typeof DeletedTransaction>
export const BulkDeleteResponse = z.object({
  deleted: z.number().int(),
  transactions: z.array(Transaction),
  documents: z.array(UnlinkedDocument).openapi({ description: 'documents that were linked to the rows deleted: kept, unlinked' }),
})
export type BulkDeleteResponse = z.infer<typeof BulkDeleteResponse>

export const MAX_BATCH = 5000
export const BatchCreateRequest = z
  .object({
    transactions: z.array(z.unknown()).min(1, 'give at least one transaction'),
    match_statement_lines: z.boolean().optional().openapi({
      description:
        'true: an item with an import_ref that is already on a statement of its account (a transaction from a statement line, not yet paired with an imported row, not void, the same amount in the account currency, transaction_date at most 3 days away: the rule a statement upload reconciles by, the other way round) is not created: that transaction takes the import_ref and is reconciled, and the answer lists it in `matched`',
    }),
  })
  .strict()
  .openapi('BatchCreateRequest')

export const BatchError = z.object({
  index: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
})
export const BatchDuplicate = z.object({ index: z.number().int(), id: z.string(), import_ref: z.string() })
/** An item paired with a statement's transaction (`match_statement_lines`): its index and that transaction's id. */
export const BatchMatched = z.object({ index: z.number().int(), id: z.string() })
export const BatchCreateResponse = z.object({
  created: z.array(Transaction),
  errors: z.array(BatchError),
  duplicates: z.array(BatchDuplicate),
  matched: z.array(BatchMatched).optional(),
})
export type BatchCreateResponse = z.infer<typeof BatchCreateResponse>
/** The answer to a batch sent with `Prefer: return=minimal`: each created row's index and id instead of the whole transaction. */
export const BatchCreateMinimalResponse = z
  .object({
    created: z.array(z.object({ index: z.number().int(), id: z.string() })),
    errors: z.array(BatchError),
    duplicates: z.array(BatchDuplicate),
    matched: z.array(BatchMatched).optional(),
  })
  .openapi('BatchCreateMinimalResponse')
export type BatchCreateMinimalResponse = z.infer<typeof BatchCreateMinimalResponse>

export const AuditEntry = z.object({
  at: Timestamp,
  actor: z.string(),
  action: z.enum([
    'create',
    'update',
    'delete',
    'bulk_update',
    'batch_create',
    'statement_import',
    'reconcile',
    'document_linked',
    'document_unlinked',
  ]),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
})
export type AuditEntry = z.infer<typeof AuditEntry>

/** A note on a transaction (docs/agents.md): a person's, or an agent's proposal a person approved. */
export const TransactionNote = z
  .object({
    id: z.string(),
    transaction_id: z.string(),
    text: z.string(),
    created_by: z.string().openapi({ description: 'who wrote it: `user:<id>`, or the agent key (`key:<id>`) whose proposal was approved' }),
    approved_by: z.string().nullable().openapi({ description: "the person who approved an agent's note" }),
    proposal_id: z.string().nullable(),
    created_at: Timestamp,
  })
  .openapi('TransactionNote')
export type TransactionNote = z.infer<typeof TransactionNote>

export const NoteRequest = z
  .object({ text: text(2000).min(1, 'is required').openapi({ description: 'the note, up to 2,000 characters' }) })
  .strict()
  .openapi('NoteRequest')
export type NoteRequest = z.infer<typeof NoteRequest>

export const TransactionDetail = Transaction.extend({
  bank_account: z.object({ id: z.string(), name: z.string() }),
  statement: z.object({ id: z.string(), file_name: z.string() }).nullable(),
  /** The documents linked to it (receipts, invoices), oldest link first. */
  documents: z.array(z.object({ id: z.string(), file_name: z.string(), kind: z.string() })),
  history: z.array(AuditEntry),
  notes: z.array(TransactionNote).openapi({ description: 'its notes, oldest first' }),
}).openapi('TransactionDetail')
export type TransactionDetail = z.infer<typeof TransactionDetail>

// ---- bank accounts: update; categories ----------------------------------------------------------

export const UpdateBankAccountRequest = z
  .object({
    name: text(200).min(1, 'must not be empty').optional(),
    institution_name: text(200).nullable().optional(),
    account_type: z.enum(ACCOUNT_TYPES).optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
    account_number: AccountNumber.nullable().optional().openapi({ description: 'only its last 4 characters are kept; null removes it' }),
    opening_balance: AmountInput.optional().openapi({
      description: "the balance at the start of the opening date, in the account's currency; refused when it would move a closed month",
    }),
    opening_balance_date: IsoDate.optional().openapi({
      description:
        'the day the opening balance counts from; refused on or before the lock date, and after a transaction of the account (docs/money.md)',
    }),
    opening_exchange_rate: AmountInput.optional().openapi({
      description:
        "the opening balance's rate into the base currency (base units per 1 unit of the account's); without it, a rate given before stays, and one from the company's rates follows the opening date: the company's rate of the opening date (or of today without one), as a transaction takes its rate; refused (400) when none is in reach (docs/money.md)",
    }),
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
