import { createRoute } from '@hono/zod-openapi'
import { listCategories } from '../../domain/categorization/categories.js'
import { Categories, envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { categoriesPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const categoriesApi = {
  list: createRoute({
    ...categoriesPaths.list,
    summary: 'Categories in use, and the accounting and cash-flow categories',
    security: accepts('read'),
    responses: { 200: ok(envelope(Categories)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
}

export function categoryRoutes(deps: AppDeps) {
  return router().openapi(categoriesApi.list, async (c) =>
    c.json({ success: true as const, data: await listCategories(deps.store, c.get('actor').companyId) }, 200),
  )
}
