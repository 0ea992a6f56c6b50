/**
 * The scope check of docs/api.md section 2. Each route declares the scopes it accepts where it is
 * defined, as its OpenAPI `security` (`accepts('read', 'reports')`, openapi.ts: any one suffices);
 * this middleware reads the declaration of the route the request matched, before its body is read.
 * A route that declares nothing is refused; a request that matches no route takes the scopes its
 * mount names for one (none under /api-v1: the 404 follows).
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { Actor } from '../../domain/actor.js'
import { AppError } from '../../kernel/errors.js'
import type { Scope } from '../../kernel/vocabulary.js'
import type { AppEnv } from '../env.js'
import { matchedRoute } from '../route-template.js'

const { ZodType } = z
type ZodType = z.ZodType

/** Each route's accepted scopes by `METHOD /path/{param}`, as its declaration lists them. */
export type ScopeTable = ReadonlyMap<string, readonly Scope[]>

/** What is done when a request's credential holds none of its route's scopes (`accepted` is never empty). */
export type Refusal = (c: Context<AppEnv>, actor: Actor, accepted: readonly Scope[]) => never

/** The scopes every route of an app declares, read from its OpenAPI registry (the routes as mounted). */
export function scopeTable(app: OpenAPIHono<AppEnv>): ScopeTable {
  const table = new Map<string, Scope[]>()
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== 'route' || !def.route.security) continue
    const scopes = new Set(def.route.security.flatMap((requirement) => Object.values(requirement).flat()))
    table.set(`${def.route.method.toUpperCase()} ${def.route.path}`, [...scopes] as Scope[])
  }
  return table
}

/** A route's request schemas as it declares them (zod), by `METHOD /path/{param}`: a JSON body's, its query's, its path's. */
export type RequestTable = ReadonlyMap<string, { body?: ZodType; query?: ZodType; params?: ZodType }>

/** The routes' declarations as mounted now (app.ts): an agent's request is checked by them when proposed. */
export interface Declared {
  scopes: () => ScopeTable
  requests: () => RequestTable
}

/** The request schemas every route of an app declares (an agent's write is checked by them when proposed). */
export function requestTable(app: OpenAPIHono<AppEnv>): RequestTable {
  const table = new Map<string, { body?: ZodType; query?: ZodType; params?: ZodType }>()
  for (const def of app.openAPIRegistry.definitions) {
    if (def.type !== 'route' || !def.route.request) continue
    const r = def.route.request
    const json = r.body?.content?.['application/json']
    const body = json && 'schema' in json ? json.schema : undefined
    table.set(`${def.route.method.toUpperCase()} ${def.route.path}`, {
      body: body instanceof ZodType ? body : undefined,
      query: r.query instanceof ZodType ? r.query : undefined,
      params: r.params instanceof ZodType ? r.params : undefined,
    })
  }
  return table
}

/** The scopes the route a request matched declares; `undefined` when it declares none, `null` when no route matched. */
export function routeScopes(c: Context<AppEnv>, table: ScopeTable): readonly Scope[] | undefined | null {
  const route = matchedRoute(c)
  return route === null ? null : table.get(route)
}

const refuseCredential: Refusal = (c, _actor, accepted) => {
  throw new AppError('forbidden', `this credential lacks the ${accepted.join(' or ')} scope needed for ${c.req.method} ${c.req.path}`)
}

/**
 * Refuse a request whose credential holds none of the scopes its route accepts. `table` is read per
 * request: the app's routes grow as route groups load (app.ts). `unrouted`: the scopes a path with no
 * route takes under this mount.
 */
export function requireScopes(
  table: () => ScopeTable,
  o: { refuse?: Refusal; unrouted?: readonly Scope[] } = {},
): MiddlewareHandler<AppEnv> {
  const { refuse = refuseCredential, unrouted = [] } = o
  return async (c, next) => {
    const declared = routeScopes(c, table())
    if (declared === undefined) throw new AppError('forbidden', `${c.req.method} ${c.req.path} declares no scopes: refused`)
    const accepted = declared ?? unrouted
    const actor = c.get('actor')
    if (accepted.length > 0 && !accepted.some((s) => actor.scopes.includes(s))) refuse(c, actor, accepted)
    await next()
  }
}
