/** Schemas of /api-v1/close (docs/api.md section 8): the month-end status, closing and reopening a month. */
import { z } from '@hono/zod-openapi'
import { Timestamp } from '../schemas.js'

const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM')
  .openapi({ description: 'a month, YYYY-MM', example: '2026-10' })

export const CloseStatusQuery = z
  .object({ month: Month.optional().openapi({ description: 'the month (default: the last full month)' }) })
  .strict()
export type CloseStatusQuery = z.infer<typeof CloseStatusQuery>

const Counts = {
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

export const CloseRecord = z
  .object({
    id: z.number().int(),
    period: z.string(),
    action: z.enum(['close', 'reopen']),
    lock_date: z.string().nullable().openapi({ description: 'the lock date once done' }),
    previous_lock_date: z.string().nullable(),
    actor: z.string(),
    reason: z.string().nullable(),
    forced: z.boolean(),
    created_at: Timestamp,
  })
  .openapi('CloseRecord')
export type CloseRecord = z.infer<typeof CloseRecord>

export const CloseMonthParams = z.object({ month: Month })
