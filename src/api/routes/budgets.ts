/**
 * Budgets (docs/budgets.md): set a category's monthly budget over months, list, delete, and the
 * versions (an original and its reforecasts, one current). Scopes: `write` to change, `read` or
 * `reports` to read (each route's `security`).
 */
import { createRoute } from '@hono/zod-openapi'
import { z } from '@hono/zod-openapi'
import { deleteBudgets, listBudgets, listVersions, makeCurrent, setBudget } from '../../domain/budgets/budgets.js'
import {
  Budget,
  BudgetListQuery,
  BudgetVersion,
  DeleteBudgetsQuery,
  DeletedBudgets,
  SetBudgetRequest,
  SetBudgetResult,
  VersionParam,
} from '../../domain/budgets/schemas.js'
import { envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { budgetsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const budgetsApi = {
  list: createRoute({
    ...budgetsPaths.list,
    summary: "A version's budgets (the current one unless named), by category then month",
    security: accepts('read', 'reports'),
    request: { query: BudgetListQuery },
    responses: {
      200: ok(envelope(z.object({ version: z.string(), budgets: z.array(Budget) }))),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
    },
  }),
  set: createRoute({
    ...budgetsPaths.set,
    summary: "Set a category's monthly budget over a range of months (a closed month is refused: 409 period_locked)",
    security: accepts('write'),
    request: { body: jsonBody(SetBudgetRequest) },
    responses: { 200: ok(envelope(SetBudgetResult)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 409: ERRORS[409] },
  }),
  delete: createRoute({
    ...budgetsPaths.delete,
    summary: "Delete a category's budgets in a range of months (every month without one; a closed month is refused: 409)",
    security: accepts('write'),
    request: { query: DeleteBudgetsQuery },
    responses: {
      200: ok(envelope(DeletedBudgets)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  versions: createRoute({
    ...budgetsPaths.versions,
    summary: 'The budget versions, the current one marked',
    security: accepts('read', 'reports'),
    responses: { 200: ok(envelope(z.array(BudgetVersion))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  makeCurrent: createRoute({
    ...budgetsPaths.makeCurrent,
    summary: 'Make a budget version the current one',
    security: accepts('write'),
    request: { params: VersionParam },
    responses: { 200: ok(envelope(BudgetVersion)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function budgetRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(budgetsApi.list, async (c) =>
      c.json({ success: true as const, data: await listBudgets(store, c.get('actor').companyId, c.req.valid('query')) }, 200),
    )
    .openapi(budgetsApi.set, async (c) =>
      c.json({ success: true as const, data: await setBudget(store, c.get('actor'), c.req.valid('json'), now()) }, 200),
    )
    .openapi(budgetsApi.delete, async (c) =>
      c.json({ success: true as const, data: await deleteBudgets(store, c.get('actor'), c.req.valid('query'), now()) }, 200),
    )
    .openapi(budgetsApi.versions, async (c) =>
      c.json({ success: true as const, data: await listVersions(store, c.get('actor').companyId) }, 200),
    )
    .openapi(budgetsApi.makeCurrent, async (c) =>
      c.json({ success: true as const, data: await makeCurrent(store, c.get('actor'), c.req.valid('param').name, now()) }, 200),
    )
}
