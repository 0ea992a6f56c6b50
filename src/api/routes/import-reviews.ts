/**
 * Review imports (docs/api.md, "Review before it lands"): a review batch's rows staged, read and
 * edited while pending, then applied or discarded. Mounted beside the batches' routes (imports.ts).
 */
import { createRoute } from '@hono/zod-openapi'
import { applyReview } from '../../domain/imports/review-apply.js'
import { keepFilePart, remapReview } from '../../domain/imports/remap.js'
import {
  ApplyResult,
  FilePartParam,
  FilePartRequest,
  LineParam,
  PendingPage,
  PendingQuery,
  PendingRow,
  RemapRequest,
  RemapResult,
  SetPendingRowRequest,
  StageRowsRequest,
  StageRowsResponse,
} from '../../domain/imports/review-schemas.js'
import { discardReview, listPending, loadReview, setPendingRow, stageRows } from '../../domain/imports/review.js'
import { applyStatementReview } from '../../domain/imports/statement-review.js'
import { isProcessing } from '../../domain/statements/inflight.js'
import { ImportBatchDetail } from '../../domain/imports/schemas.js'
import { envelope, IdParam } from '../../domain/schemas.js'
import { z } from '@hono/zod-openapi'
import type { AppDeps } from '../env.js'
import { reportInternalError } from '../errors.js'
import { PROPOSED } from '../proposed.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { importReviewsPaths } from '../paths.js'

const conflict = { 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404], 409: ERRORS[409] }

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const importReviewsApi = {
  stage: createRoute({
    ...importReviewsPaths.stage,
    summary: "Stage rows of a running review import (options.review): validated as a batch create's, kept by line, not created",
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(StageRowsRequest) },
    responses: { 200: ok(envelope(StageRowsResponse)), ...conflict },
  }),
  pending: createRoute({
    ...importReviewsPaths.pending,
    summary: "A review import's pending rows, by line, with its expiry",
    security: accepts('read', 'transactions'),
    request: { params: IdParam, query: PendingQuery },
    responses: { 200: ok(PendingPage), ...conflict },
  }),
  setRow: createRoute({
    ...importReviewsPaths.setRow,
    summary: 'Change fields of one pending row (validated again as a whole)',
    security: accepts('write', 'transactions'),
    request: { params: LineParam, body: jsonBody(SetPendingRowRequest) },
    responses: { 200: ok(envelope(PendingRow)), ...conflict },
  }),
  apply: createRoute({
    ...importReviewsPaths.apply,
    summary:
      "Land a pending batch's rows as the import would have, exactly once (a second apply creates nothing); an agent's key proposes it (202)",
    security: accepts('write', 'transactions'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(ApplyResult)), 202: PROPOSED, ...conflict },
  }),
  discard: createRoute({
    ...importReviewsPaths.discard,
    summary: "Drop a pending batch's rows: its state becomes discarded",
    security: accepts('write', 'transactions'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(ImportBatchDetail)), ...conflict },
  }),
  putFilePart: createRoute({
    ...importReviewsPaths.putFilePart,
    summary: "Keep a part of a running review import's file (parts from 0, in order), for imports remap",
    security: accepts('write', 'transactions'),
    request: { params: FilePartParam, body: jsonBody(FilePartRequest) },
    responses: { 200: ok(envelope(z.object({ part: z.number().int(), size: z.number().int() }))), ...conflict },
  }),
  remap: createRoute({
    ...importReviewsPaths.remap,
    summary: "Read a pending batch's kept file again with another mapping: its pending rows replaced, what is refused named by line",
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(RemapRequest) },
    responses: { 200: ok(envelope(RemapResult)), ...conflict },
  }),
}

export function importReviewRoutes(deps: AppDeps) {
  const { store, now, dateWindow: window } = deps
  return router()
    .openapi(importReviewsApi.stage, async (c) =>
      c.json(
        {
          success: true as const,
          data: await stageRows(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now(), window),
        },
        200,
      ),
    )
    .openapi(importReviewsApi.pending, async (c) =>
      c.json(
        {
          success: true as const,
          ...(await listPending(store, c.get('actor').companyId, c.req.valid('param').id, c.req.valid('query'))),
        },
        200,
      ),
    )
    .openapi(importReviewsApi.setRow, async (c) => {
      const { id, line } = c.req.valid('param')
      const row = await setPendingRow(store, c.get('actor'), id, line, c.req.valid('json'), now(), window)
      return c.json({ success: true as const, data: row }, 200)
    })
    .openapi(importReviewsApi.apply, async (c) => {
      const { id } = c.req.valid('param')
      const actor = c.get('actor')
      // A statement upload's batch uploads its kept file as the statement (statement-review.ts).
      const data =
        (await loadReview(store, actor.companyId, id)).kind === 'statement'
          ? await applyStatementReview(store, actor, id, now(), {
              now,
              workerThreshold: deps.statementWorkerThreshold,
              report: (err) => reportInternalError(err, c.get('requestId')),
              running: (s) => isProcessing(store, s),
            })
          : await applyReview(store, actor, id, now(), window)
      return c.json({ success: true as const, data }, 200)
    })
    .openapi(importReviewsApi.discard, async (c) =>
      c.json({ success: true as const, data: await discardReview(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
    .openapi(importReviewsApi.putFilePart, async (c) => {
      const { id, part } = c.req.valid('param')
      return c.json({ success: true as const, data: await keepFilePart(store, c.get('actor'), id, part, c.req.valid('json')) }, 200)
    })
    .openapi(importReviewsApi.remap, async (c) =>
      c.json(
        {
          success: true as const,
          data: await remapReview(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now(), window),
        },
        200,
      ),
    )
}
