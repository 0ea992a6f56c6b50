/**
 * Import batches (docs/api.md, "Imports"): open one before sending rows (their requests name it in
 * X-Import-Batch), finish it, list and read them. Statement uploads record theirs themselves.
 */
import { createRoute } from '@hono/zod-openapi'
import { createImportBatch, finishImportBatch, getImportBatch, listImportBatches } from '../../domain/imports/batches.js'
import {
  CreateImportRequest,
  FinishImportRequest,
  ImportBatch,
  ImportBatchDetail,
  ImportListQuery,
  ImportPage,
} from '../../domain/imports/schemas.js'
import { finishReview } from '../../domain/imports/review.js'
import { envelope, IdParam } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { withRevertRoutes } from './imports-revert.js'
import { importReviewRoutes } from './import-reviews.js'
import { importsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const importsApi = {
  list: createRoute({
    ...importsPaths.list,
    summary: "The company's import batches, newest first",
    security: accepts('read', 'transactions'),
    request: { query: ImportListQuery },
    responses: { 200: ok(ImportPage), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  create: createRoute({
    ...importsPaths.create,
    summary: 'Open an import batch: send its rows with X-Import-Batch set to its id, then finish it',
    security: accepts('write', 'transactions'),
    request: { body: jsonBody(CreateImportRequest) },
    responses: { 201: ok(envelope(ImportBatch), 'Created'), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...importsPaths.get,
    summary: 'One import batch: its file, options, counts, state and rejected rows',
    security: accepts('read', 'transactions'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(ImportBatchDetail)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  finish: createRoute({
    ...importsPaths.finish,
    summary: 'End a running import batch: completed, failed or interrupted, with the rows refused before sending',
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(FinishImportRequest) },
    responses: {
      200: ok(envelope(ImportBatchDetail)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
}

export function importRoutes(deps: AppDeps) {
  const { store, now } = deps
  const company = (c: { get(k: 'actor'): { companyId: string } }) => c.get('actor').companyId
  const app = router()
    .openapi(importsApi.list, async (c) =>
      c.json({ success: true as const, ...(await listImportBatches(store, company(c), c.req.valid('query'))) }, 200),
    )
    .openapi(importsApi.create, async (c) =>
      c.json({ success: true as const, data: await createImportBatch(store, c.get('actor'), c.req.valid('json'), now()) }, 201),
    )
    .openapi(importsApi.get, async (c) =>
      c.json({ success: true as const, data: await getImportBatch(store, company(c), c.req.valid('param').id) }, 200),
    )
    .openapi(importsApi.finish, async (c) => {
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      // `pending`: a review import's run ends with its rows staged (review.ts).
      const done =
        body.state === 'pending'
          ? await finishReview(store, c.get('actor'), id, body, now())
          : await finishImportBatch(store, company(c), id, body, now())
      return c.json({ success: true as const, data: done }, 200)
    })
    .route('/', importReviewRoutes(deps))
  return withRevertRoutes(app, deps)
}
