/**
 * One structured line per request: request id, method, route template, status, duration.
 * Never a header, a query string or a body, so no key, token or password can reach the log.
 */
import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { AccessLogEntry, AppEnv } from '../env.js'
import { endpointTemplate } from '../route-template.js'
import { monotonicMs } from '../../kernel/clock.js'

export function accessLog(write: (entry: AccessLogEntry) => void): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = monotonicMs()
    try {
      await next()
    } finally {
      const route = routePath(c)
      write({
        request_id: c.get('requestId'),
        method: c.req.method,
        route: route.endsWith('*') ? '(unmatched)' : endpointTemplate(route),
        status: c.res.status,
        duration_ms: Math.round((monotonicMs() - started) * 10) / 10,
        ...(c.get('apiKey') ? { key_prefix: c.get('apiKey')!.key_prefix } : {}),
      })
    }
  }
}
