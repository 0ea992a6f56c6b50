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

const StagedRow = z.object({ line: Line, transaction: z.record(z.string(), z.unknown()) }).strict()
type StagedRow = z.infer<typeof StagedRow>

/** A row as StagedRow takes it, checked by hand: zod's record walks every field of each row. */
function plainRow(r: unknown): r is StagedRow {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false
  const { line, transaction } = r as Record<string, unknown>
  if (!Number.isSafeInteger(line) || (line as number) < 1) return false
  if (typeof transaction !== 'object' || transaction === null || Array.isArray(transaction)) return false
  let keys = 0
  for (const _ in r) keys++
  return keys === 2
}

export const StageRowsRequest = z
  .object({
    // The rows are checked by hand, and a row that fails by StagedRow, for its errors: zod took as
    // long to check a row's shape as the create's validation of the row (docs/performance.md).
    rows: z
      .array(z.unknown())
      .max(MAX_STAGED, `at most ${MAX_STAGED} rows a request`)
      .superRefine((rows, ctx) => {
        rows.forEach((r, i) => {
          if (plainRow(r)) return
          for (const issue of StagedRow.safeParse(r).error?.issues ?? [])
            ctx.addIssue({ ...issue, path: [i, ...issue.path] } as Parameters<typeof ctx.addIssue>[0])
        })
      })
      .openapi({
        items: {
          type: 'object',
          properties: {
            line: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            transaction: { type: 'object', additionalProperties: {} },
          },
          required: ['line', 'transaction'],
          additionalProperties: false,
        },
      }) as unknown as z.ZodArray<typeof StagedRow>,
  })
  .strict()
  .openapi('StageRowsRequest')
export type StageRowsRequest = { rows: StagedRow[] }

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

/** A review import's file is kept for `imports remap` up to this size; a larger one is not kept. */
export const MAX_KEPT_FILE = 20 * 1024 * 1024
/** Bytes of the file one request carries: its base64 stays under the 1 MiB a request body may hold. */
export const FILE_PART_BYTES = 512 * 1024

export const FilePartParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  part: z.coerce
    .number()
    .int()
    .min(0)
    .max(Math.ceil(MAX_KEPT_FILE / FILE_PART_BYTES) - 1)
    .openapi({ param: { name: 'part', in: 'path', required: true } }),
})

export const FilePartRequest = z
  .object({
    content_base64: z
      .string()
      .min(1, 'is required')
      .max(Math.ceil(FILE_PART_BYTES / 3) * 4 + 4)
      .openapi({ description: `a part of the file, base64-encoded (at most ${FILE_PART_BYTES} bytes decoded; parts numbered from 0)` }),
  })
  .strict()
  .openapi('FilePartRequest')
export type FilePartRequest = z.infer<typeof FilePartRequest>

/** `imports remap`: the kept file read again with these columns (each field given replaces the batch's own). */
export const RemapRequest = z
  .object({
    map: z
      .array(
        z
          .string()
          .max(200)
          .regex(/^[a-z_]+=.+$/, 'must be field=Column, e.g. category=Memo'),
      )
      .max(30)
      .optional()
      .openapi({ description: "CSV column mapping as tx import's --map: field=Column (repeat a field to join columns)" }),
    invert_sign: z.boolean().optional().openapi({ description: 'flip every amount (or, false, no more)' }),
    date_format: z.string().max(20).optional().openapi({ description: "the dates' layout, as tx import's --date-format" }),
  })
  .strict()
  .refine((b) => b.map?.length || b.invert_sign !== undefined || b.date_format !== undefined, 'give map, invert_sign or date_format')
  .openapi('RemapRequest')
export type RemapRequest = z.infer<typeof RemapRequest>

/** What a remap read: rows kept pending (replacing the earlier ones), on the account already, refused (named in `rejects`). */
export const RemapResult = ImportBatchDetail.extend({
  remap: z.object({ read: z.number().int(), staged: z.number().int(), existing: z.number().int(), rejected: z.number().int() }),
}).openapi('RemapResult')
export type RemapResult = z.infer<typeof RemapResult>
