import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env.js'

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/

/** X-Request-Id on every response: the caller's if it is sane, otherwise a new one. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = c.req.header('x-request-id')
  // randomUUID draws from a cached entropy pool: cheaper per request than randomBytes.
  const id = incoming && SAFE_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '').slice(0, 20)}`
  c.set('requestId', id)
  c.header('X-Request-Id', id)
  await next()
  // An error response built elsewhere may have lost the header.
  if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', id)
}
