import { createRoute } from '@hono/zod-openapi'
import { Health, envelope } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { ok, router } from '../openapi.js'

export function systemRoutes(deps: AppDeps) {
  return router().openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      summary: 'Health of the service and its store',
      responses: { 200: ok(envelope(Health)) },
    }),
    (c) => c.json({ success: true as const, data: { status: 'ok' as const, version: deps.version, store: deps.store.dialect } }, 200),
  )
}
