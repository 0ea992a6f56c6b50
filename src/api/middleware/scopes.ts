/**
 * Scope rules of docs/api.md section 2 for /api-v1: `read` for GET, `write` for POST/PATCH/DELETE, and
 * `transactions` for GET and writes on /api-v1/transactions/**, /api-v1/imports/** and an account's
 * transaction list,
 * `close` for writes on /api-v1/close/**, `webhooks` for /api-v1/webhook-endpoints/** and a resend;
 * `users` for writes on /api-v1/users/**, `reports` for reading reports, the company, budgets, recurring items
 * and the forecast (a POST) (docs/people.md);
 * the policy takes `users` to set, deciding a proposal the step's scope (checked by the use case);
 * the exports' accounts map `write` or `close`.
 */
import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../kernel/errors.js'
import type { Scope } from '../../domain/schemas.js'
import { JWT_SCOPES } from '../../kernel/vocabulary.js'
import type { AppEnv } from '../env.js'

const TRANSACTION_PATH = /^\/api-v1\/(transactions(\/|$)|imports(\/|$)|bank-accounts\/[^/]+\/transactions\/?$)/
const CLOSE_PATH = /^\/api-v1\/close(\/|$)/
/** Webhook endpoints receive every event of the company, and a resend sends one: only with `webhooks` (docs/events.md). */
const WEBHOOK_PATH = /^\/api-v1\/(webhook-endpoints(\/|$)|events\/[^/]+\/resend\/?$)/
const USERS_PATH = /^\/api-v1\/users(\/|$)/
/** Under an approval policy a reopen may be proposed with `write` (docs/people.md): the use case decides. */
const REOPEN_PATH = /^\/api-v1\/close\/[^/]+\/reopen\/?$/
const POLICY_PATH = /^\/api-v1\/(policy|close\/policy)\/?$/
/** Deciding a proposal: the use case checks the step's own scope. */
const APPROVALS_PATH = /^\/api-v1\/approvals(\/|$)/
/** The chart of accounts the exports take: an accountant (`close`) maps it, as the owner (`write`) may. */
const ACCOUNTS_MAP_PATH = /^\/api-v1\/exports\/accounts-map\/?$/
/** Who am I: any login or key with a scope may ask. */
const SELF_PATH = /^\/api-v1\/users\/me\/?$/
/** What a viewer (`reports`) reads: the reports, the company they are of, budgets, recurring items and the forecast. */
const REPORT_PATH = /^\/api-v1\/(reports(\/|$)|company\/?$|budgets(\/|$)|recurring(\/|$)|forecast\/?$)/
/** A forecast is a read sent as a POST (its scenario is a body): `read` or `reports`, as the reports. */
const FORECAST_PATH = /^\/api-v1\/forecast\/?$/

export function acceptedScopes(method: string, path: string): Scope[] {
  const base: Scope = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  if (WEBHOOK_PATH.test(path)) return ['webhooks']
  if (USERS_PATH.test(path)) {
    if (base === 'write') return ['users']
    return SELF_PATH.test(path) ? [...JWT_SCOPES] : ['read', 'users']
  }
  if (POLICY_PATH.test(path)) return base === 'write' ? ['users'] : ['read', 'users']
  if (base === 'write' && APPROVALS_PATH.test(path)) return ['write', 'close', 'users']
  if (base === 'write' && REOPEN_PATH.test(path)) return ['close', 'write']
  if (base === 'write' && ACCOUNTS_MAP_PATH.test(path)) return ['write', 'close']
  if (base === 'read' && REPORT_PATH.test(path)) return ['read', 'reports']
  if (method === 'POST' && FORECAST_PATH.test(path)) return ['read', 'reports']
  // Closing or reopening a month takes `close`, never plain `write` (the use case checks the login too).
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
