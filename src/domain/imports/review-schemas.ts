/**
 * Review imports as the API shows them (docs/api.md, "Review before it lands"): a `tx import
 * --review` stages its validated rows on its batch, which waits `pending` until it is applied or
 * discarded, or expires PENDING_DAYS after it was stored.
 */
import { z } from '@hono/zod-openapi'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../../kernel/vocabulary.js'
import { BatchDuplicate, BatchError, CreateTransactionRequest, Tags } from '../schemas.js'
import { Timestamp, text } from '../schema-common.js'
import { ImportBatchDetail } from './schemas.js'

/** How long a pending batch waits for `imports apply` (docs/importing-csv.md, "Review before it lands"). */
export const PENDING_DAYS = 7
/** Rows staged by one request: a batch of rows as `tx import` sends them. */
export const MAX_STAGED = 5000

const Line = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)

export const StageRowsRequest = z
  .object({
    rows: z
      .array(z.object({ line: Line, transaction: z.record(z.string(), z.unknown()) }).strict())
      .max(MAX_STAGED, `at most ${MAX_STAGED} rows a request`),
  })
  .strict()
  .openapi('StageRowsRequest')
export type StageRowsRequest = z.infer<typeof StageRowsRequest>

/** Which rows (by index in the request) were kept pending, were on the account already, or were refused, as a batch create answers. */
export const StageRowsResponse = z
  .object({
    staged: z.array(z.number().int()),
    duplicates: z.array(BatchDuplicate),
    errors: z.array(BatchError),
  })
  .openapi('StageRowsResponse')
export type StageRowsResponse = z.infer<typeof StageRowsResponse>

export const PendingRow = z.object({ line: z.number().int(), transaction: CreateTransactionRequest.partial() }).openapi('PendingRow')
export type PendingRow = z.infer<typeof PendingRow>

export const PendingQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    /** The last line of the page before (lines ascending). */
    after: z.coerce.number().int().min(0).optional(),
  })
  .strict()
export type PendingQuery = z.infer<typeof PendingQuery>

export const PendingPage = z
  .object({
    success: z.literal(true),
    data: z.object({ staged: z.number().int(), expires_at: Timestamp, rows: z.array(PendingRow) }),
    pagination: z.object({ limit: z.number().int(), next_after: z.number().int().nullable(), has_more: z.boolean() }),
  })
  .openapi('PendingPage')

/** The fields of a pending row `imports set` may change; null clears an optional one. */
export const SetPendingRowRequest = z
  .object({
    description: text(1000).min(1, 'is required').optional(),
    category: text(100).nullable().optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).nullable().optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).nullable().optional(),
    merchant_name: text(200).nullable().optional(),
    tags: Tags.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give at least one field to change')
  .openapi('SetPendingRowRequest')
export type SetPendingRowRequest = z.infer<typeof SetPendingRowRequest>

export const LineParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  line: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: 'line', in: 'path' } }),
})

/** What one `imports apply` did (a second apply creates nothing), beside the batch as it is now. */
export const ApplyResult = ImportBatchDetail.extend({
  applied: z.object({ created: z.number().int(), existing: z.number().int(), reconciled: z.number().int(), rejected: z.number().int() }),
}).openapi('ApplyResult')
export type ApplyResult = z.infer<typeof ApplyResult>

/** A page of pending rows as the client reads it. */
export interface PendingPageData {
  data: { staged: number; expires_at: string; rows: PendingRow[] }
  pagination: { limit: number; next_after: number | null; has_more: boolean }
}
