/** The categorization model: its status and settings, a suggestion per transaction, the review list. */
import { createRoute, z } from '@hono/zod-openapi'
import { updateSettings } from '../../domain/categorization/settings.js'

/** The model and the rules engine load with the first request that needs them. */
const service = () => import('../../domain/categorization/categorizer.js')
import {
  CategorizationSettings,
  ModelStatus,
  ReviewPage,
  ReviewQuery,
  Suggestion,
  UpdateCategorizationSettings,
} from '../../domain/categorization/schemas.js'
import { envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { categorizationPaths } from '../paths.js'

const TransactionIdParam = z.object({ transaction_id: z.string().openapi({ param: { name: 'transaction_id', in: 'path' } }) })

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const categorizationApi = {
  model: createRoute({
    ...categorizationPaths.model,
    summary: 'The learned categorization model: settings, training size, calibration',
    security: accepts('read'),
    responses: { 200: ok(envelope(ModelStatus)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  retrain: createRoute({
    ...categorizationPaths.retrain,
    summary: 'Retrain the model from the labelled transactions now (and refit its calibration)',
    security: accepts('write'),
    responses: { 200: ok(envelope(ModelStatus)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  settings: createRoute({
    ...categorizationPaths.settings,
    summary: 'Turn automatic categorization on or off, or set the confidence threshold',
    security: accepts('write'),
    request: { body: jsonBody(UpdateCategorizationSettings) },
    responses: { 200: ok(envelope(CategorizationSettings)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  review: createRoute({
    ...categorizationPaths.review,
    summary: 'Uncategorized and low-confidence transactions, newest first, each with a suggestion',
    security: accepts('read'),
    request: { query: ReviewQuery },
    responses: { 200: ok(ReviewPage), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  suggestion: createRoute({
    ...categorizationPaths.suggestion,
    summary: 'What rules, then the model, would set as the category of a transaction, and why',
    security: accepts('read'),
    request: { params: TransactionIdParam },
    responses: { 200: ok(envelope(Suggestion.nullable())), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function categorizationRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(categorizationApi.model, async (c) =>
      c.json({ success: true as const, data: await (await service()).modelStatus(store, c.get('actor').companyId) }, 200),
    )
    .openapi(categorizationApi.retrain, async (c) =>
      c.json({ success: true as const, data: await (await service()).modelStatus(store, c.get('actor').companyId, true) }, 200),
    )
    .openapi(categorizationApi.settings, async (c) =>
      c.json({ success: true as const, data: await updateSettings(store, c.get('actor').companyId, c.req.valid('json'), now()) }, 200),
    )
    .openapi(categorizationApi.review, async (c) => {
      const q = c.req.valid('query')
      const page = await (await service()).listReview(store, c.get('actor').companyId, {
        limit: q.limit ?? 50,
        cursor: q.cursor,
        below: q.below,
      })
      return c.json({ success: true as const, ...page }, 200)
    })
    .openapi(categorizationApi.suggestion, async (c) =>
      c.json(
        {
          success: true as const,
          data: await (await service()).suggestFor(store, c.get('actor').companyId, c.req.valid('param').transaction_id),
        },
        200,
      ),
    )
}
