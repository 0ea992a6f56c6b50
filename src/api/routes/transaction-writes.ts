/**
 * Transactions' writes (docs/service-interface.md section 4.3, docs/api.md section 4): creation,
 * batches, bulk changes, updates and deletes. A group apart from the reads (`transactions.ts`), loaded
 * with the first request under /api-v1/transactions that is not a GET: building these routes and their
 * schemas was about 1% of every `tx list` (docs/performance.md, "Start-up guards").
 */
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { BulkHint } from '../../domain/transactions/create.js'
import {
  BatchCreateMinimalResponse,
  BatchCreateRequest,
  BatchCreateResponse,
  BulkDeleteRequest,
  BulkDeleteResponse,
  BulkUpdateRequest,
  BulkUpdateResponse,
  CreateTransactionRequest,
  DeletedTransaction,
  IdParam,
  NoteRequest,
  Transaction,
  TransactionNote,
  UpdateTransactionRequest,
  envelope,
} from '../../domain/schemas.js'
import type { AppDeps, AppEnv } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { doneOrProposed, PROPOSED } from '../proposed.js'
import { transactionWritesPaths } from '../paths.js'

const IdempotencyHeader = z.object({
  'idempotency-key': z.string().optional().openapi({ description: 'the same key and body within 24 h replay the first answer' }),
})
const BatchHeaders = IdempotencyHeader.extend({
  'x-import-batch': z.string().max(100).optional().openapi({
    description:
      'the id of a running import batch (POST /api-v1/imports): what this request creates, finds there already, pairs or rejects is counted into it',
  }),
  prefer: z.string().optional().openapi({
    description:
      "return=minimal (RFC 7240): `created` lists each created row's index and id instead of the whole transaction (answered with Preference-Applied; not with an Idempotency-Key, whose replays are the first answer). bulk-load=N: a hint that this batch is part of a load of N rows (on SQLite a large load sets indexes aside until it ends); bulk-load-end: the load's last batch (SQLite builds those indexes again, PostgreSQL refreshes stale statistics, before the answer; see docs/performance.md)",
  }),
})

/** Whether a Prefer header asks for return=minimal (RFC 7240: a list of preferences, each maybe with parameters). */
function prefersMinimal(prefer: string | undefined): boolean {
  return !!prefer?.split(',').some((p) => /^\s*return\s*=\s*"?minimal"?\s*(;|$)/i.test(p))
}

/**
 * `Prefer: bulk-load=N`: the client is about to send N rows in batches; `bulk-load-end`: this is the
 * load's last batch (hints; see BulkHint).
 */
function bulkHint(prefer: string | undefined): BulkHint | undefined {
  const hint: BulkHint = {}
  for (const p of prefer?.split(',') ?? []) {
    const m = /^\s*bulk-load\s*=\s*"?(\d{1,12})"?\s*(;|$)/i.exec(p)
    if (m) hint.rows = Number(m[1])
    else if (/^\s*bulk-load-end\s*(;|$)/i.test(p)) hint.end = true
  }
  return hint.rows === undefined && !hint.end ? undefined : hint
}

/** The writes' code loads with the first request that runs it, not when `finctl serve` builds every group. */
const creating = () => import('../../domain/transactions/create.js')
const creatingOnce = () => import('../../domain/transactions/create-idempotent.js')
const updating = () => import('../../domain/transactions/updates.js')
const batches = () => import('../../domain/imports/batches.js')

function replayed(c: Context<AppEnv>, r: { replayed: boolean }): void {
  if (r.replayed) c.header('Idempotent-Replayed', 'true')
}

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const transactionWritesApi = {
  create: createRoute({
    ...transactionWritesPaths.create,
    summary: 'Create a transaction',
    security: accepts('write', 'transactions'),
    request: { body: jsonBody(CreateTransactionRequest), headers: IdempotencyHeader },
    responses: {
      201: ok(envelope(Transaction), 'Created'),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
      429: ERRORS[429],
    },
  }),
  bulkUpdate: createRoute({
    ...transactionWritesPaths.bulkUpdate,
    summary:
      'Update up to 1,000 transactions at once, all or nothing; under a bulk approval policy, more rows than its threshold are a proposal (202)',
    security: accepts('write', 'transactions'),
    request: { body: jsonBody(BulkUpdateRequest) },
    responses: { 200: ok(envelope(BulkUpdateResponse)), 202: PROPOSED, 400: ERRORS[400], 404: ERRORS[404], 409: ERRORS[409] },
  }),
  bulkDelete: createRoute({
    ...transactionWritesPaths.bulkDelete,
    summary:
      'Delete up to 1,000 transactions at once, all or nothing (none reconciled, none in a closed period); under a bulk approval policy, more rows than its threshold are a proposal (202)',
    security: accepts('write', 'transactions'),
    request: { body: jsonBody(BulkDeleteRequest) },
    responses: { 200: ok(envelope(BulkDeleteResponse)), 202: PROPOSED, 400: ERRORS[400], 404: ERRORS[404], 409: ERRORS[409] },
  }),
  batch: createRoute({
    ...transactionWritesPaths.batch,
    summary: 'Create up to 5,000 transactions: valid ones commit together, invalid ones are reported by index',
    security: accepts('write', 'transactions'),
    request: { body: jsonBody(BatchCreateRequest), headers: BatchHeaders },
    responses: {
      201: ok(
        envelope(z.union([BatchCreateResponse, BatchCreateMinimalResponse])),
        'Created (the minimal shape with Prefer: return=minimal)',
      ),
      400: ERRORS[400],
      413: ERRORS[413],
    },
  }),
  update: createRoute({
    ...transactionWritesPaths.update,
    summary:
      "Update a transaction (status rules; a reconciled one keeps amount, dates, account and currency); an agent's key proposes it (202)",
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(UpdateTransactionRequest) },
    responses: { 200: ok(envelope(Transaction)), 202: PROPOSED, 400: ERRORS[400], 404: ERRORS[404], 409: ERRORS[409] },
  }),
  addNote: createRoute({
    ...transactionWritesPaths.addNote,
    summary: "Add a note to a transaction (text beside it, never a field of it); an agent's key proposes it (202)",
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(NoteRequest) },
    responses: { 201: ok(envelope(TransactionNote), 'Created'), 202: PROPOSED, 400: ERRORS[400], 404: ERRORS[404] },
  }),
  delete: createRoute({
    ...transactionWritesPaths.delete,
    summary: 'Delete a transaction (not a reconciled one); its documents stay, unlinked',
    security: accepts('write', 'transactions'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(DeletedTransaction)), 404: ERRORS[404], 409: ERRORS[409] },
  }),
}

export function transactionWriteRoutes(deps: AppDeps) {
  const { store, now, dateWindow: window } = deps
  return router()
    .openapi(transactionWritesApi.create, async (c) => {
      const key = c.req.header('idempotency-key')
      if (key !== undefined) {
        const { createTransactionIdempotent } = await creatingOnce()
        const r = await createTransactionIdempotent(store, c.get('actor'), c.req.valid('json'), key, now(), window)
        replayed(c, r)
        return c.json({ success: true as const, data: r.body }, 201)
      }
      const { createTransaction } = await creating()
      return c.json(
        { success: true as const, data: await createTransaction(store, c.get('actor'), c.req.valid('json'), now(), window) },
        201,
      )
    })
    .openapi(transactionWritesApi.bulkUpdate, async (c) => {
      // The steps' code (proposals, every step they may apply) loads with the first bulk change, not with each list.
      const { requestBulkUpdate } = await import('../../domain/approvals/steps.js')
      const r = await requestBulkUpdate(store, c.get('actor'), c.req.valid('json'), now())
      return doneOrProposed(c, r)
    })
    .openapi(transactionWritesApi.bulkDelete, async (c) => {
      const { requestBulkDelete } = await import('../../domain/approvals/steps.js')
      const r = await requestBulkDelete(store, c.get('actor'), c.req.valid('json'), now())
      return doneOrProposed(c, r)
    })
    .openapi(transactionWritesApi.batch, async (c) => {
      const actor = c.get('actor')
      const { transactions: items, match_statement_lines: match } = c.req.valid('json')
      const batch = c.req.header('x-import-batch')
      const { countIntoBatch, runningBatch } = await batches()
      if (batch !== undefined) await runningBatch(store, actor.companyId, batch)
      const counted = async <T extends { created: unknown[]; duplicates: unknown[]; errors: unknown[]; matched?: unknown[] }>(r: T) => {
        if (batch !== undefined)
          await countIntoBatch(store, actor.companyId, batch, {
            created: r.created.length,
            existing: r.duplicates.length,
            reconciled: r.matched?.length ?? 0,
            rejected: r.errors.length,
          })
        return r
      }
      const key = c.req.header('idempotency-key')
      if (key !== undefined) {
        const { createTransactionBatchIdempotent } = await creatingOnce()
        const r = await createTransactionBatchIdempotent(store, actor, items, key, now(), window, match)
        replayed(c, r)
        // A replay created nothing: the first answer was counted.
        if (!r.replayed) await counted(r.body)
        return c.json({ success: true as const, data: r.body }, 201)
      }
      const prefer = c.req.header('prefer')
      const minimal = prefersMinimal(prefer)
      if (minimal) c.header('Preference-Applied', 'return=minimal')
      const options = { now: now(), window, minimal, bulk: bulkHint(prefer), matchStatementLines: match, importBatch: batch }
      const { storeTransactionBatch } = await creating()
      return c.json({ success: true as const, data: await counted(await storeTransactionBatch(store, actor, items, options)) }, 201)
    })
    .openapi(transactionWritesApi.update, async (c) => {
      const { updateTransaction } = await updating()
      return c.json(
        {
          success: true as const,
          data: await updateTransaction(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now(), window),
        },
        200,
      )
    })
    .openapi(transactionWritesApi.addNote, async (c) => {
      const { addNote } = await import('../../domain/transactions/notes.js')
      const note = await addNote(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json').text, now())
      return c.json({ success: true as const, data: note }, 201)
    })
    .openapi(transactionWritesApi.delete, async (c) => {
      const { deleteTransaction } = await updating()
      return c.json({ success: true as const, data: await deleteTransaction(store, c.get('actor'), c.req.valid('param').id, now()) }, 200)
    })
}
