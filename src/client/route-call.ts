/**
 * The client's one way to call a route: by its entry in src/api/paths.ts (where it is) and its
 * definition in src/api/routes/<group>.ts (what it takes and answers). The definitions are imported
 * as types only, so this thread loads no schema; their request schemas type a call's params, query
 * and body, their 200/201/202 schemas its answer. A renamed path, a removed field or a new required
 * one is then an error of `npm run typecheck` in the call, not a 404 or a 400 at run time.
 */
import type { RouteConfig, z } from '@hono/zod-openapi'
import type { ApiResult, RequestOptions } from './request.js'

/** What the client sends through: the Client (client.ts), or anything that requests as it does. */
export interface Sender {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

/** A route's entry in src/api/paths.ts. */
export interface Where {
  readonly method: string
  readonly path: string
}

type Json<C> = C extends { content: { 'application/json': { schema: infer S extends z.ZodType } } } ? S : never
/** A part the call must give unless every field of it is optional. */
type Part<K extends string, T> = Partial<T> extends T ? { [P in K]?: T } : { [P in K]: T }

/**
 * A query as a URL carries it: the route's fields, each required or optional as the route says,
 * their values text (or a number or flag written as text) that the service validates and names in a 400.
 */
export type QueryOf<T> = { [K in keyof T]: string | number | boolean }

/** The params (`{id}` of the path), query and JSON body a route's definition takes, as a caller writes them. */
export type RouteInput<R> = (R extends { request: { params: infer S extends z.ZodType } } ? { params: z.input<S> } : { params?: never }) &
  (R extends { request: { query: infer S extends z.ZodType } } ? Part<'query', QueryOf<z.input<S>>> : { query?: never }) &
  (R extends { request: { body: infer B } } ? Part<'body', z.input<Json<B>>> : { body?: never })

type Success = 200 | 201 | 202
type Answers<R> = R extends { responses: infer A } ? { [S in keyof A & Success]: z.output<Json<A[S]>> }[keyof A & Success] : never
type DataOf<E> = E extends { data: infer D } ? D : never
/** The `data` of a route's answers that are not errors (a 200 or 201, a 202's proposal). */
export type RouteData<R> = DataOf<Answers<R>>

/** A call's own options beside the route's input: the credential, extra headers, the signal that ends it. */
export type CallOptions = Pick<RequestOptions, 'auth' | 'headers' | 'signal'>

type Args<R> = Partial<RouteInput<R>> extends RouteInput<R> ? [input?: RouteInput<R> & CallOptions] : [input: RouteInput<R> & CallOptions]

/** The entries of paths.ts a group's definitions spread: each the same method and path, or the compiler says which differs. */
export type WhereOf<M> = {
  readonly [K in keyof M]: M[K] extends { method: infer Me; path: infer P } ? { readonly method: Me; readonly path: P } : never
}

/** A route's path with its `{param}`s filled in, each encoded. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`route ${path}: no value for {${name}}`)
    return encodeURIComponent(String(params[name]))
  })
}

/**
 * The calls of one route group: `call(key, { params, query, body })`, typed by the group's
 * definitions `M` (`typeof <group>Api`, imported as a type) and sent to its entries `at`
 * (`<group>Paths` of src/api/paths.ts). `call.pages` walks a list route page by page.
 */
export function routeCalls<M extends Record<string, RouteConfig>>(c: Sender, at: WhereOf<M>) {
  const send = <K extends keyof M & string>(key: K, input: (RouteInput<M[K]> & CallOptions) | undefined) => {
    const { params, query, body, ...o } = (input ?? {}) as {
      params?: Record<string, unknown>
      query?: unknown
      body?: unknown
    } & CallOptions
    const w = at[key] as Where
    return c.request<RouteData<M[K]>>(w.method.toUpperCase(), fillPath(w.path, params), {
      ...o,
      ...(query === undefined ? {} : { query: query as RequestOptions['query'] }),
      ...(body === undefined ? {} : { body }),
    })
  }
  const call = <K extends keyof M & string>(key: K, ...[input]: Args<M[K]>): Promise<ApiResult<RouteData<M[K]>>> => send(key, input)
  /** Every page of a list route, one page at a time (memory holds one page). */
  async function* pages<K extends keyof M & string>(key: K, ...[input]: Args<M[K]>): AsyncGenerator<ApiResult<RouteData<M[K]>>> {
    let cursor: string | undefined
    for (;;) {
      const q = { ...((input as { query?: object } | undefined)?.query ?? {}), cursor }
      const page = await send(key, { ...(input ?? {}), query: q } as unknown as RouteInput<M[K]> & CallOptions)
      yield page
      cursor = page.pagination?.next_cursor ?? undefined
      if (!page.pagination?.has_more || !cursor) return
    }
  }
  return Object.assign(call, { pages })
}
