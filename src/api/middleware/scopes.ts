/**
 * Scope rules of docs/api.md section 2 for /api-v1: `read` for GET, `write` for POST/PATCH/DELETE, and
 * `transactions` for GET and writes on /api-v1/transactions/**, /api-v1/imports/** and an account's
 * transaction list,
 * `close` for writes on /api-v1/close/**, `webhooks` for /api-v1/webhook-endpoints/** and a resend.
 */
import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../kernel/errors.js'
import type { Scope } from '../../domain/schemas.js'
import type { AppEnv } from '../env.js'

const TRANSACTION_PATH = /^\/api-v1\/(transactions(\/|$)|imports(\/|$)|bank-accounts\/[^/]+\/transactions\/?$)/
const CLOSE_PATH = /^\/api-v1\/close(\/|$)/
/** Webhook endpoints receive every event of the company, and a resend sends one: only with `webhooks` (docs/events.md). */
const WEBHOOK_PATH = /^\/api-v1\/(webhook-endpoints(\/|$)|events\/[^/]+\/resend\/?$)/

export function acceptedScopes(method: string, path: string): Scope[] {
  const base: Scope = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  if (WEBHOOK_PATH.test(path)) return ['webhooks']
  // Closing or reopening a month takes `close`, never plain `write` (the use case checks the owner too).
  if (base === 'write' && CLOSE_PATH.test(path)) return ['close']
  return TRANSACTION_PATH.test(path) ? [base, 'transactions'] : [base]
}

export const requireScopes: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get('actor')
  const accepted = acceptedScopes(c.req.method, c.req.path)
  if (!accepted.some((s) => actor.scopes.includes(s))) {
    throw new AppError('forbidden', `this credential lacks the ${accepted.join(' or ')} scope needed for ${c.req.method} ${c.req.path}`)
  }
  await next()
}
