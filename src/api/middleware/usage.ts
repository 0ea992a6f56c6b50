/**
 * Records every authenticated request (after it is answered, whatever its status, 429 too), a key's
 * under its id and a login's under `user:<id>`, the actor id of its audit entries (docs/people.md):
 * endpoint as its route template with the /api-v1 prefix, the path as requested, method, status,
 * time taken, the request id. On `finctl serve` the answer leaves once its record is written
 * (UsageRecorder), so that a usage read in any process counts it.
 */
import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { AppDeps, AppEnv } from '../env.js'
import { endpointTemplate } from '../route-template.js'
import { monotonicMs } from '../../kernel/clock.js'
import { answerOnceDurable } from './durable.js'

/** The MCP tool a request was made for (docs/agents.md), as the client said it: kept only in its one shape. */
const VIA = /^mcp:[a-z_]{1,40}$/
const viaOf = (header: string | undefined) => (header && VIA.test(header) ? header : null)

export function recordUsage(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = monotonicMs()
    try {
      await next()
    } finally {
      const key = c.get('apiKey')
      const actor = key ? undefined : c.get('actor')
      const recordedAs = key?.id ?? (actor?.kind === 'jwt' && actor.userId ? `user:${actor.userId}` : undefined)
      const companyId = key?.company_id ?? actor?.companyId
      if (recordedAs && companyId) {
        // After next(), the route index points at the handler that answered (not merely the last
        // route that matches the path: /api-keys/{id}/usage also matches /api-keys/me/usage).
        const route = routePath(c)
        // NUL (from %00 in the path) cannot be stored in PostgreSQL text, and one such record would
        // fail every batch after it: replace it.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it replaces
        const path = c.req.path.slice(0, 200).replace(/\u0000/g, '\uFFFD')
        const endpoint = route.endsWith('*') ? path : endpointTemplate(route)
        const row = {
          key_id: recordedAs,
          company_id: companyId,
          method: c.req.method,
          endpoint,
          status_code: c.res.status,
          response_time_ms: Math.round(monotonicMs() - started),
          created_at: deps.now().toISOString(),
          request_id: c.get('requestId') ?? null,
          path,
          via: viaOf(c.req.header('x-finctl-via')),
        }
        // A failed write keeps its records for the next one: the request is answered all the same.
        await deps.usage.record(row).catch(() => {})
        await answerOnceDurable(c, deps)
        // Writes undone answer their error: the record, kept for the next write when it was undone
        // with them, says so.
        row.status_code = c.res.status
      }
    }
  }
}
