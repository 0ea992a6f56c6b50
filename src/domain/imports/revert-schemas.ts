/** A batch's revert as the API shows it (docs/api.md, "Imports": POST /api-v1/imports/{id}/revert). */
import { z } from '@hono/zod-openapi'
import { ImportBatch } from './schemas.js'

export const RevertImportRequest = z
  .object({
    /** Say what would go, change nothing. */
    dry_run: z.boolean().optional(),
    /** Revert rows changed by hand since the import too (rows in a closed month never are). */
    include_edited: z.boolean().optional(),
  })
  .strict()
  .openapi('RevertImportRequest')
export type RevertImportRequest = z.infer<typeof RevertImportRequest>

/** The rows listed in an answer; the counts count them all. */
export const MAX_LISTED_ROWS = 1000

export const RevertedRow = z
  .object({
    id: z.string(),
    transaction_date: z.string(),
    amount: z.number(),
    currency_code: z.string(),
    description: z.string(),
    /** delete: a row the batch created; unpair: a row of the account the batch reconciled, given back as it was. */
    action: z.enum(['delete', 'unpair']),
    edited: z.boolean(),
  })
  .openapi('RevertedRow')
export type RevertedRow = z.infer<typeof RevertedRow>

export const RevertRefusal = z
  .object({
    id: z.string(),
    transaction_date: z.string(),
    reason: z.enum(['closed_month', 'edited']),
    message: z.string(),
  })
  .openapi('RevertRefusal')
export type RevertRefusal = z.infer<typeof RevertRefusal>

export const RevertResult = z
  .object({
    batch: ImportBatch,
    dry_run: z.boolean(),
    deleted: z.number().int(),
    unpaired: z.number().int(),
    /** The rows that go (or would), up to MAX_LISTED_ROWS. */
    transactions: z.array(RevertedRow),
    /** Rows that stop the revert (up to MAX_LISTED_ROWS): in a closed month, or changed by hand without include_edited. Empty once reverted. */
    refused: z.array(RevertRefusal),
    /** A statement upload's statement, deleted so that the same file can be uploaded again. */
    statement: z.object({ id: z.string(), file_name: z.string() }).nullable(),
    /** Documents linked to the rows that go (or would): unlinked with them, kept, listed by `docs list --unlinked`. */
    documents: z.array(z.object({ id: z.string(), file_name: z.string(), transaction_id: z.string() })),
  })
  .openapi('RevertResult')
export type RevertResult = z.infer<typeof RevertResult>
