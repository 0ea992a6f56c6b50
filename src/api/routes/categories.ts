import { createRoute } from '@hono/zod-openapi'
import { listCategories } from '../../domain/categorization/categories.js'
import { Categories, envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { accepts, ERRORS, ok, router } from '../openapi.js'

export function categoryRoutes(deps: AppDeps) {
  return router().openapi(
    createRoute({
      method: 'get',
      path: '/api-v1/categories',
      summary: 'Categories in use, and the accounting and cash-flow categories',
      security: accepts('read'),
      responses: { 200: ok(envelope(Categories)), 401: ERRORS[401], 403: ERRORS[403] },
    }),
    async (c) => c.json({ success: true as const, data: await listCategories(deps.store, c.get('actor').companyId) }, 200),
  )
}
