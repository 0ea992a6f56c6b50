/** Import batches as the API shows them (docs/api.md, "Imports"): one per `tx import` or statement upload. */
import { z } from '@hono/zod-openapi'
import { MAX_KEPT_REJECTS } from '../../kernel/vocabulary.js'
import { Pagination, Timestamp, text, Uuid } from '../schema-common.js'

/** `seed`: a `finctl seed` transactions step's rows (jobs/seed/steps/transactions.ts). */
export const IMPORT_KINDS = ['csv', 'statement', 'seed'] as const
/** `pending`, `discarded`, `expired`: a review import's (review-schemas.ts); `reverted`: revert.ts. */
export const IMPORT_STATES = ['running', 'completed', 'failed', 'interrupted', 'pending', 'discarded', 'expired', 'reverted'] as const

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

export const ImportReject = z
  .object({ line: z.number().int().min(0), reason: text(1000) })
  .strict()
  .openapi('ImportReject')
export type ImportReject = z.infer<typeof ImportReject>

export const ImportCounts = z.object({ created: Count, existing: Count, reconciled: Count, rejected: Count }).openapi('ImportCounts')

export const ImportBatch = z
  .object({
    id: z.string(),
    kind: z.enum(IMPORT_KINDS),
    bank_account_id: z.string().nullable(),
    statement_id: z.string().nullable(),
    file_name: z.string(),
    file_sha256: z.string().nullable(),
    /** The mapping and flags as the command was given them (and, read from the file, the plan). */
    options: z.record(z.string(), z.unknown()),
    actor: z.string(),
    state: z.enum(IMPORT_STATES),
    read: z.number().int().nullable(),
    counts: ImportCounts,
    created_at: Timestamp,
    finished_at: Timestamp.nullable(),
    /** Set by `imports revert`: when, and who (docs/api.md, "Imports"). */
    reverted_at: Timestamp.nullable(),
    reverted_by: z.string().nullable(),
  })
  .openapi('ImportBatch')
export type ImportBatch = z.infer<typeof ImportBatch>

export const ImportBatchDetail = ImportBatch.extend({ rejects: z.array(ImportReject) }).openapi('ImportBatchDetail')
export type ImportBatchDetail = z.infer<typeof ImportBatchDetail>

export const CreateImportRequest = z
  .object({
    kind: z.enum(IMPORT_KINDS).default('csv'),
    bank_account_id: Uuid.optional(),
    file_name: text(1000).min(1, 'must not be empty'),
    file_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits')
      .optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi('CreateImportRequest')
export type CreateImportRequest = z.infer<typeof CreateImportRequest>

/**
 * The end of a batch. Counts the service saw (rows sent with X-Import-Batch) are kept; `rejected`,
 * when given, is every row the command counted as rejected (those it refused before sending and the
 * service's), and `rejects` names the first of them.
 */
export const FinishImportRequest = z
  .object({
    /** `pending`: a review import's rows are staged and wait for apply (review.ts). */
    state: z.enum(['completed', 'failed', 'interrupted', 'pending']),
    read: Count.optional(),
    rejected: Count.optional(),
    rejects: z.array(ImportReject).max(MAX_KEPT_REJECTS).optional(),
  })
  .strict()
  .openapi('FinishImportRequest')
export type FinishImportRequest = z.infer<typeof FinishImportRequest>

export const ImportListQuery = z
  .object({
    kind: z.enum(IMPORT_KINDS).optional(),
    bank_account_id: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(500).optional(),
  })
  .strict()
export type ImportListQuery = z.infer<typeof ImportListQuery>

export const ImportPage = z.object({ success: z.literal(true), data: z.array(ImportBatch), pagination: Pagination }).openapi('ImportPage')
