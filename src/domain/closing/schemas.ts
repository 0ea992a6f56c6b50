/** Schemas of /api-v1/close (docs/api.md section 8): the month-end status, closing and reopening a month. */
import { z } from '@hono/zod-openapi'
import { EXPORT_FORMATS } from '../../kernel/vocabulary.js'
import { Timestamp } from '../schemas.js'
import { ClosePolicy, MissingDocument } from './document-policy-schemas.js'

const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM')
  .openapi({ description: 'a month, YYYY-MM', example: '2026-10' })

export const CloseStatusQuery = z
  .object({ month: Month.optional().openapi({ description: 'the month (default: the last full month)' }) })
  .strict()
export type CloseStatusQuery = z.infer<typeof CloseStatusQuery>

const Counts = {
  documents_missing: z.number().int().openapi({
    description:
      "the month's non-void transactions at or above their currency's document threshold with no document linked (blocks only with require_documents)",
  }),
  not_reconciled: z.number().int().openapi({ description: "the month's non-void transactions not reconciled with a statement line" }),
  uncategorized: z.number().int().openapi({ description: "the month's non-void transactions without a category" }),
  pending: z.number().int().openapi({ description: "the month's transactions still pending" }),
  unconverted: z.number().int().openapi({
    description:
      "the month's non-void transactions in a currency the account's balance cannot count: not the account's, on an account that is not in the base currency (no rate into its currency)",
  }),
  statements_processing: z.number().int().openapi({ description: 'statements still pending or processing' }),
}

export const CloseStatusAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    currency_code: z.string(),
    statement: z
      .object({
        id: z.string(),
        period_end: z.string(),
        closing_balance: z.number().openapi({ description: "the statement's closing balance, in the account's currency" }),
      })
      .nullable()
      .openapi({ description: 'the last completed statement whose period ends on or before the month end; null: none' }),
    book_balance: z
      .number()
      .nullable()
      .openapi({ description: "the account's balance in finctl on the statement's last day (null: no statement)" }),
    difference: z
      .number()
      .nullable()
      .openapi({ description: 'statement closing balance minus book balance (null: no statement); 0 when they agree' }),
    ...Counts,
    ready: z.boolean(),
    blockers: z.array(z.string()).openapi({ description: 'what keeps the account from being ready, in words' }),
  })
  .openapi('CloseStatusAccount')
export type CloseStatusAccount = z.infer<typeof CloseStatusAccount>

export const CloseStatus = z
  .object({
    month: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    lock_date: z.string().nullable().openapi({ description: "the company's lock date now (null: nothing closed)" }),
    closed: z.boolean().openapi({ description: 'the month is on or before the lock date' }),
    accounts: z.array(CloseStatusAccount),
    company: z.object({ ...Counts, accounts_not_ready: z.number().int() }),
    ready: z.boolean().openapi({ description: 'every account is ready: the month may be closed' }),
    document_policy: ClosePolicy.pick({ document_thresholds: true, require_documents: true }),
    documents_missing: z
      .array(MissingDocument)
      .openapi({ description: 'the transactions without a document (at most 100, by date; company.documents_missing counts them all)' }),
  })
  .openapi('CloseStatus')
export type CloseStatus = z.infer<typeof CloseStatus>

export const CloseRequest = z
  .object({
    force: z.boolean().optional().openapi({ description: 'close although the month is not ready (needs reason)' }),
    reason: z.string().trim().min(1, 'is required').max(500).optional().openapi({ description: 'why (with force)' }),
  })
  .strict()
export type CloseRequest = z.infer<typeof CloseRequest>

export const ReopenRequest = z
  .object({ reason: z.string().trim().min(1, 'is required').max(500).openapi({ description: 'why the month is reopened (audited)' }) })
  .strict()
export type ReopenRequest = z.infer<typeof ReopenRequest>

export const ForcedOver = z
  .object({
    statements: z
      .array(
        z.object({
          statement_id: z.string(),
          bank_account_id: z.string(),
          bank_account: z.string(),
          period_end: z.string(),
          currency_code: z.string(),
          closing_balance: z.string().openapi({ description: "the statement's closing balance, a decimal" }),
          book_balance: z.string().openapi({ description: "the account's balance in finctl on period_end, a decimal" }),
          difference: z.string().openapi({ description: 'closing_balance - book_balance, a decimal' }),
        }),
      )
      .openapi({ description: 'each statement whose closing balance differed from the books' }),
    accounts: z
      .array(z.object({ bank_account_id: z.string(), bank_account: z.string(), blockers: z.array(z.string()) }))
      .openapi({ description: "each account that was not ready, and what kept it (close status's blockers, in words)" }),
    documents_missing: z.number().int().openapi({ description: 'transactions without a document that kept the month from being ready' }),
  })
  .openapi('ForcedOver')
export type ForcedOver = z.infer<typeof ForcedOver>

export const CloseRecord = z
  .object({
    id: z.number().int(),
    period: z.string(),
    action: z.enum(['close', 'reopen']),
    lock_date: z.string().nullable().openapi({ description: 'the lock date once done' }),
    previous_lock_date: z.string().nullable(),
    actor: z.string(),
    actor_name: z.string().nullable().openapi({ description: "who by name: the user's email or the key's name (null: not known)" }),
    reason: z.string().nullable(),
    forced: z.boolean(),
    forced_over: ForcedOver.nullable().openapi({
      description: 'a forced close: what it was forced over (statements that differed, accounts not ready); null otherwise',
    }),
    created_at: Timestamp,
    chain_head: z
      .object({
        id: z.number().int().nullable().openapi({ description: "the chain's last entry when the month was closed (null: no entry yet)" }),
        hash: z.string().openapi({ description: 'its SHA-256 (hex)' }),
      })
      .nullable()
      .openapi({ description: "a close: the audit chain's head at that moment (null on a reopen and on closes before 0024)" }),
  })
  .openapi('CloseRecord')
export type CloseRecord = z.infer<typeof CloseRecord>

export const CloseMonthParams = z.object({ month: Month })

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 written as 64 lowercase hex digits')
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')

export const CloseExportRequest = z
  .object({
    format: z.enum(EXPORT_FORMATS),
    file_name: z.string().trim().min(1, 'is required').max(255).openapi({ description: 'the file name, without its folder' }),
    sha256: Sha256.openapi({ description: "SHA-256 (hex) of the file's bytes" }),
    bytes: z.number().int().min(0),
    rows: z.number().int().min(0).openapi({ description: 'transactions written' }),
    from: Day.openapi({ description: 'the first day the export covers' }),
    to: Day.openapi({ description: 'the last day the export covers' }),
    accounts_map_sha256: Sha256.nullable()
      .optional()
      .openapi({ description: 'SHA-256 of the accounts map a journal was written with (absent: the default mapping)' }),
  })
  .strict()
export type CloseExportRequest = z.infer<typeof CloseExportRequest>

export const CloseExport = z
  .object({
    id: z.number().int(),
    close_id: z.number().int(),
    format: z.string(),
    file_name: z.string(),
    sha256: z.string(),
    bytes: z.number().int(),
    rows: z.number().int(),
    from: z.string(),
    to: z.string(),
    accounts_map_sha256: z.string().nullable(),
    actor: z.string(),
    created_at: Timestamp,
  })
  .openapi('CloseExport')
export type CloseExport = z.infer<typeof CloseExport>

export const MonthFigure = z
  .object({
    bank_account_id: z.string(),
    currency_code: z.string(),
    transactions: z.number().int().openapi({ description: 'non-void transactions' }),
    total: z.string().openapi({ description: 'their sum, a decimal in the currency', example: '-1250.00' }),
  })
  .openapi('MonthFigure')

const SHOWN_IDS = 'at most 100, sorted; `changed` counts them all'

export const CloseContentsCheck = z
  .object({
    recorded: z
      .boolean()
      .openapi({ description: 'the close recorded its rows (closes before migration 0026 did not: nothing to compare)' }),
    rows_then: z.number().int().nullable(),
    rows_now: z.number().int(),
    sha256_then: z.string().nullable().openapi({ description: "SHA-256 over the month's rows at the close" }),
    sha256_now: z.string(),
    figures_then: z.array(MonthFigure).nullable(),
    figures_now: z.array(MonthFigure),
    inserted: z.array(z.string()).openapi({ description: `rows dated in the month that were not there at the close (${SHOWN_IDS})` }),
    edited: z.array(z.string()).openapi({ description: `rows whose stored fields changed (${SHOWN_IDS})` }),
    deleted: z.array(z.string()).openapi({ description: `rows there at the close and gone now (${SHOWN_IDS})` }),
    changed: z.number().int().openapi({ description: 'rows inserted, edited or deleted since the close' }),
    message: z.string().nullable().openapi({ description: 'what changed, in words (null: nothing)' }),
  })
  .openapi('CloseContentsCheck')

export const CloseVerification = z
  .object({
    month: z.string(),
    record: CloseRecord.openapi({ description: "the month's latest close" }),
    chain: z.object({
      intact: z.boolean().openapi({ description: 'the whole chain is intact (as GET /api-v1/audit/verify)' }),
      head_found: z.boolean().openapi({ description: 'the entry that was the head at the close is still in the chain with the same hash' }),
      message: z.string().nullable().openapi({ description: 'what is wrong, in words (null: nothing)' }),
    }),
    still_closed: z.boolean().openapi({ description: "the company's lock date still covers the month" }),
    renamed: z
      .object({
        company: z
          .object({ at_close: z.string(), now: z.string() })
          .nullable()
          .openapi({ description: "the company's name at the close and now, when it changed" }),
        accounts: z
          .array(z.object({ bank_account_id: z.string(), at_close: z.string(), now: z.string() }))
          .openapi({ description: 'each account renamed since the close: its name then and now' }),
      })
      .openapi({
        description:
          'names changed since the close (closes before migration 0048 kept none): a rename, not a change of the period; its exports are produced again with the names of the close',
      }),
    lock: z
      .object({
        intact: z.boolean().openapi({ description: "the company's lock date is the one the audit chain's last close or reopen set" }),
        message: z.string().nullable().openapi({ description: 'what is wrong, in words (null: nothing)' }),
      })
      .openapi({ description: 'the lock date against the audit chain: one set or cleared outside finctl is named' }),
    reopened: CloseRecord.nullable().openapi({ description: 'the reopen after the close, if any' }),
    exports: z.array(CloseExport).openapi({ description: 'the exports recorded for this close, to check again' }),
    earlier_exports: z
      .array(CloseExport.extend({ closed_at: Timestamp.openapi({ description: 'when the close they were recorded on was made' }) }))
      .optional()
      .openapi({
        description:
          'the exports recorded on earlier closes of the month (reopened since), the latest first: a file that is one of them is out of date',
      }),
    contents: CloseContentsCheck.openapi({ description: "the month's rows and figures now against those recorded at the close" }),
    audit_after_close: z
      .array(z.object({ id: z.number().int(), transaction_id: z.string(), action: z.string(), created_at: z.string() }))
      .openapi({
        description:
          "audit entries after the close's head about a transaction of the month (at most 100): forged, or written while the month was reopened",
      }),
  })
  .openapi('CloseVerification')
export type CloseVerification = z.infer<typeof CloseVerification>
