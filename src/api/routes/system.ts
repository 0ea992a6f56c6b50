import { createRoute } from '@hono/zod-openapi'
import { Health, envelope } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { ok, router } from '../openapi.js'
import { systemPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const systemApi = {
  health: createRoute({
    ...systemPaths.health,
    summary: 'Health of the service and its store',
    responses: { 200: ok(envelope(Health)) },
  }),
}

export function systemRoutes(deps: AppDeps) {
  return router().openapi(systemApi.health, (c) =>
    c.json({ success: true as const, data: { status: 'ok' as const, version: deps.version, store: deps.store.dialect } }, 200),
  )
}
