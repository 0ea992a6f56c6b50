/**
 * Checks a request body before any route sees it: at most 1 MiB (413), JSON content type (415)
 * and well-formed JSON (400 invalid_json). Routes that take files declare their own limit later.
 */
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../../domain/errors.js'
import type { AppEnv } from '../env.js'

export const MAX_JSON_BODY = 1024 * 1024
/** A batch of 5,000 transactions is larger than 1 MiB of JSON. */
export const MAX_BATCH_BODY = 16 * 1024 * 1024
const LARGE_BODY_PATHS = new Set(['/api-v1/transactions/batch'])

const limiter = (maxSize: number, label: string) =>
  bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is not read: the connection cannot carry another request.
      c.header('Connection', 'close')
      throw new AppError('payload_too_large', `the request body is larger than ${label}`)
    },
  })
const limitJson = limiter(MAX_JSON_BODY, '1 MiB')
const limitBatch = limiter(MAX_BATCH_BODY, '16 MiB')

export const bodyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return next()
  const limit = LARGE_BODY_PATHS.has(c.req.path) ? limitBatch : limitJson
  return limit(c, async () => {
    const text = await c.req.text()
    if (text.length === 0) return next()
    const type = c.req.header('content-type') ?? ''
    if (!/^application\/(.+\+)?json\b/i.test(type)) {
      throw new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json')
    }
    try {
      JSON.parse(text)
    } catch {
      throw new AppError('invalid_json', 'the request body is not valid JSON')
    }
    await next()
  })
}
