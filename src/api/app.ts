/**
 * The HTTP app: one instance serves `finctl serve` (on a socket) and the embedded transport
 * (`app.fetch` in-process). Both go through the same middleware, so they behave the same.
 */
import { requireJwtScope } from '../domain/api-keys/keys.js'
import { AppError } from '../kernel/errors.js'
import type { AppDeps } from './env.js'
import { errorResponse, onError } from './errors.js'
import { accessLog } from './middleware/access-log.js'
import { agentGate } from './middleware/agent.js'
import { authenticate } from './middleware/auth.js'
import { bodyGuard } from './middleware/body-guard.js'
import { rateLimit } from './middleware/rate-limit.js'
import { requestId } from './middleware/request-id.js'
import { requestTable, requireScopes, scopeTable, type Refusal, type RequestTable, type ScopeTable } from './middleware/scopes.js'
import { replayer } from './replay.js'
import { recordUsage } from './middleware/usage.js'
import { durableAnswers } from './middleware/durable.js'
import { router } from './openapi.js'
import { loadProposedSchema } from './proposed.js'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from './env.js'

type RouteGroup = (deps: AppDeps) => OpenAPIHono<AppEnv>
type Load = () => Promise<RouteGroup>

/** A key's administration refuses as its use cases do: an API key, or a login without the scope. */
const keyAdministration: Refusal = (_c, actor, accepted) => {
  requireJwtScope(actor, accepted[0])
  throw new AppError('forbidden', `this token lacks the ${accepted.join(' or ')} scope`)
}

/**
 * The route groups, in the order they are mounted, each under a path prefix of its own. A group's
 * module (its routes and their schemas) is loaded on the first request under its prefix: a CLI
 * command on the embedded target builds only the groups it calls (building every schema is a
 * large share of a start: docs/performance.md). `finctl serve` loads them all before it listens.
 * A group may keep its writes apart (`writes`): those load with its first request that is not a GET
 * or HEAD, so that a list does not build the routes and schemas of every write.
 */
const GROUPS: ReadonlyArray<readonly [prefix: string, load: Load, writes?: Load]> = [
  ['/healthz', () => import('./routes/system.js').then((m) => m.systemRoutes)],
  ['/auth', () => import('./routes/auth.js').then((m) => m.authRoutes)],
  ['/api-keys', () => import('./routes/api-keys.js').then((m) => m.apiKeyRoutes)],
  ['/api-v1/bank-accounts', () => import('./routes/bank-accounts.js').then((m) => m.bankAccountRoutes)],
  [
    '/api-v1/transactions',
    () => import('./routes/transactions.js').then((m) => m.transactionRoutes),
    () => import('./routes/transaction-writes.js').then((m) => m.transactionWriteRoutes),
  ],
  ['/api-v1/company', () => import('./routes/company.js').then((m) => m.companyRoutes)],
  ['/api-v1/categories', () => import('./routes/categories.js').then((m) => m.categoryRoutes)],
  ['/api-v1/categorization', () => import('./routes/categorization.js').then((m) => m.categorizationRoutes)],
  ['/api-v1/categorization-rules', () => import('./routes/categorization-rules.js').then((m) => m.categorizationRuleRoutes)],
  ['/api-v1/reports', () => import('./routes/reports.js').then((m) => m.reportRoutes)],
  ['/api-v1/statements', () => import('./routes/statements.js').then((m) => m.statementRoutes)],
  ['/api-v1/documents', () => import('./routes/documents.js').then((m) => m.documentRoutes)],
  ['/api-v1/exchange-rates', () => import('./routes/exchange-rates.js').then((m) => m.exchangeRateRoutes)],
  ['/api-v1/exports', () => import('./routes/exports.js').then((m) => m.exportRoutes)],
  ['/api-v1/close', () => import('./routes/close.js').then((m) => m.closeRoutes)],
  ['/api-v1/audit', () => import('./routes/audit.js').then((m) => m.auditRoutes)],
  ['/api-v1/events', () => import('./routes/events.js').then((m) => m.eventRoutes)],
  ['/api-v1/logs', () => import('./routes/logs.js').then((m) => m.logRoutes)],
  ['/api-v1/imports', () => import('./routes/imports.js').then((m) => m.importRoutes)],
  ['/api-v1/webhook-endpoints', () => import('./routes/webhooks.js').then((m) => m.webhookRoutes)],
  ['/api-v1/users', () => import('./routes/users.js').then((m) => m.userRoutes)],
  ['/api-v1/policy', () => import('./routes/approvals.js').then((m) => m.policyRoutes)],
  ['/api-v1/approvals', () => import('./routes/approvals.js').then((m) => m.approvalRoutes)],
  ['/api-v1/budgets', () => import('./routes/budgets.js').then((m) => m.budgetRoutes)],
  ['/api-v1/recurring', () => import('./routes/recurring.js').then((m) => m.recurringRoutes)],
  ['/api-v1/forecast', () => import('./routes/forecast.js').then((m) => m.forecastRoutes)],
]
const OPENAPI_PATH = '/openapi.json'
export const ROUTE_GROUP_PREFIXES: readonly string[] = GROUPS.map(([prefix]) => prefix)

/** The index of the group whose prefix the path is under, or -1 (no route there: 404). */
export function groupOf(path: string): number {
  return GROUPS.findIndex(([prefix]) => path === prefix || (path.startsWith(prefix) && path[prefix.length] === '/'))
}

/** The path of a request URL as Hono's router sees it (percent-decoded), without parsing the whole URL. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3)
  if (start < 0) return '/'
  let end = start
  while (end < url.length && url[end] !== '?' && url[end] !== '#') end++
  const path = url.slice(start, end)
  if (!path.includes('%')) return path
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

export interface App {
  /** Answer one request (Hono's fetch): loads the route group it needs first. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>
  /** Load every route group (before `finctl serve` listens; for the OpenAPI document). */
  loadAll(): Promise<void>
}

export function createApp(deps: AppDeps): App {
  // One instance of each stateful middleware, shared by every build of the router.
  const log = deps.log ? accessLog(deps.log) : undefined
  const durable = durableAnswers(deps)
  const guards = [authenticate(deps), recordUsage(deps), rateLimit(deps), bodyGuard] as const
  // Each route's declared scopes and request schemas, read once its routes are mounted (build).
  let scopes: ScopeTable = new Map()
  let requests: RequestTable = new Map()
  const declared = () => scopes
  const agent = agentGate(deps, { scopes: declared, requests: () => requests })
  // Route groups reach the app itself to replay an agent's approved request as its approver.
  const groupDeps: AppDeps = Object.assign(Object.create(deps) as AppDeps, { replay: replayer((request) => fetch(request)) })
  // Each group's routers: [0] its module (its reads, for a group with writes apart), [1] its writes.
  const mounted: Array<[OpenAPIHono<AppEnv> | undefined, OpenAPIHono<AppEnv> | undefined]> = GROUPS.map(() => [undefined, undefined])
  const loading = new Map<string, Promise<void>>()

  const build = () => {
    const app = router()
    app.use('*', requestId)
    if (log) app.use('*', log)
    app.use('*', durable)
    // Order matters: usage records every key-authenticated answer, 429 and bad bodies included;
    // a refused request (429) never reads its body. ('/api-keys/*' also matches '/api-keys'.)
    for (const prefix of ['/api-v1/*', '/api-keys/*']) app.use(prefix, ...guards)
    app.use('/api-v1/*', requireScopes(declared))
    // After the scopes: an agent proposes only what its key's scopes would let it ask for.
    app.use('/api-v1/*', agent)
    // Key administration takes a login (its routes declare api_keys, as a path without a route does):
    // refuse others (403) before the body is validated, as /api-v1 does, so that an API key never
    // learns more than "forbidden" there.
    app.use('/api-keys/*', requireScopes(declared, { refuse: keyAdministration, unrouted: ['api_keys'] }))
    app.use('/auth/*', bodyGuard)

    // A group's writes first: the OpenAPI document lists paths in the order they were first mounted,
    // as when one module held them (docs/openapi.json).
    for (const [reads, writes] of mounted) for (const group of [writes, reads]) if (group) app.route('/', group)
    scopes = scopeTable(app)
    requests = requestTable(app)

    app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' })
    app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    app.doc31(OPENAPI_PATH, {
      openapi: '3.1.0',
      info: { title: 'finctl Financial Data Service', version: deps.version },
    })

    app.notFound((c) => errorResponse(c, new AppError('not_found', `no route for ${c.req.method} ${c.req.path}`)))
    app.onError((err, c) => onError(err, c, deps.store.location))
    return app
  }

  let current = build()

  const load = (i: number, part: 0 | 1 = 0): Promise<void> => {
    const id = `${i}.${part}`
    let p = loading.get(id)
    if (!p) {
      const from = GROUPS[i][part === 0 ? 1 : 2]
      p = (from ? from() : Promise.reject(new Error(`route group ${GROUPS[i][0]} has no writes apart`))).then((group) => {
        mounted[i][part] = group(groupDeps)
        // A new router with the groups loaded so far, mounted in their fixed order.
        current = build()
      })
      p.catch(() => loading.delete(id))
      loading.set(id, p)
    }
    return p
  }
  const loadAll = async () => {
    const parts = GROUPS.flatMap(([, , writes], i) => (writes ? [load(i), load(i, 1)] : [load(i)]))
    await Promise.all([...parts, loadProposedSchema()])
  }

  function fetch(request: Request, env?: unknown): Response | Promise<Response> {
    const path = pathOf(request.url)
    if (path === OPENAPI_PATH) return loadAll().then(() => current.fetch(request, env))
    const i = groupOf(path)
    if (i < 0) return current.fetch(request, env)
    const part = GROUPS[i][2] && request.method !== 'GET' && request.method !== 'HEAD' ? 1 : 0
    if (mounted[i][part]) return current.fetch(request, env)
    return load(i, part).then(() => current.fetch(request, env))
  }
  return { fetch, loadAll }
}
