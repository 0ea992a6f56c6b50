/**
 * Recurring items (docs/forecast.md): detect series in the history (kept as suggestions), accept
 * one, add one by hand, list, delete. Scopes: `write` to detect and change, `read` or `reports` to list.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { acceptRecurring, addRecurring, deleteRecurring, detectRecurring, listRecurring } from '../../domain/recurring/items.js'
import { AddRecurringRequest, DetectRequest, DetectResult, RecurringItem, RecurringListQuery } from '../../domain/recurring/schemas.js'
import { Deleted, IdParam, envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { recurringPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const recurringApi = {
  list: createRoute({
    ...recurringPaths.list,
    summary: 'Recurring items (accepted unless asked otherwise), each with its next date due and whether it is overdue',
    security: accepts('read', 'reports'),
    request: { query: RecurringListQuery },
    responses: { 200: ok(envelope(z.array(RecurringItem))), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  detect: createRoute({
    ...recurringPaths.detect,
    summary: 'Find recurring series in the history; they replace the suggestions of the last detection',
    security: accepts('write'),
    request: { body: jsonBody(DetectRequest) },
    responses: { 200: ok(envelope(DetectResult)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  add: createRoute({
    ...recurringPaths.add,
    summary: 'Add a recurring item by hand (accepted)',
    security: accepts('write'),
    request: { body: jsonBody(AddRecurringRequest) },
    responses: { 201: ok(envelope(RecurringItem), 'Created'), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  accept: createRoute({
    ...recurringPaths.accept,
    summary: 'Accept a suggested item (accepting an accepted one answers it as it is)',
    security: accepts('write'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(RecurringItem)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  delete: createRoute({
    ...recurringPaths.delete,
    summary: 'Delete a recurring item',
    security: accepts('write'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Deleted)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function recurringRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(recurringApi.list, async (c) =>
      c.json({ success: true as const, data: await listRecurring(store, c.get('actor').companyId, c.req.valid('query'), now()) }, 200),
    )
    .openapi(recurringApi.detect, async (c) =>
      c.json({ success: true as const, data: await detectRecurring(store, c.get('actor'), c.req.valid('json'), now()) }, 200),
    )
    .openapi(recurringApi.add, async (c) =>
      c.json({ success: true as const, data: await addRecurring(store, c.get('actor'), c.req.valid('json'), now()) }, 201),
    )
    .openapi(recurringApi.accept, async (c) =>
      c.json({ success: true as const, data: await acceptRecurring(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
    .openapi(recurringApi.delete, async (c) =>
      c.json({ success: true as const, data: await deleteRecurring(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
}
