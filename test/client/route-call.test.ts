/**
 * The client is typed by the routes (src/client/route-call.ts): a call's path comes from
 * src/api/paths.ts, its input and answer from the route's definition. The `@ts-expect-error` lines
 * are the proof that matters: `npm run typecheck` (tsconfig includes test/) fails if any of them
 * stops being an error, that is if a wrong or missing field, or a path the route does not have,
 * would compile. The runtime tests check what the calls send.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { budgetsPaths } from '../../src/api/paths.js'
import type { budgetsApi } from '../../src/api/routes/budgets.js'
import type { SetBudgetResult } from '../../src/domain/budgets/schemas.js'
import { Client } from '../../src/client/client.js'
import { fillPath, type RouteData, routeCalls, type Sender } from '../../src/client/route-call.js'

/** A client whose transport records each request and answers with an empty success envelope. */
function recording() {
  const sent: Array<{ method: string; url: string; body?: unknown }> = []
  const client = new Client({
    baseUrl: 'http://finctl.test',
    maxRetries: 0,
    fetch: async (url, init) => {
      sent.push({ method: String(init.method), url, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) })
      return new Response(JSON.stringify({ success: true, data: {} }), { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  return { client, sent }
}

// A route group of two routes, as src/api/routes/<group>.ts defines one.
const Body = z.object({ name: z.string(), amount: z.number().optional() })
const demoPaths = {
  create: { method: 'post', path: '/api-v1/demo/{id}' },
  list: { method: 'get', path: '/api-v1/demo' },
} as const
const demoApi = {
  create: createRoute({
    ...demoPaths.create,
    request: { params: z.object({ id: z.string() }), body: { content: { 'application/json': { schema: Body } }, required: true } },
    responses: {
      201: { description: 'ok', content: { 'application/json': { schema: z.object({ success: z.literal(true), data: Body }) } } },
    },
  }),
  list: createRoute({
    ...demoPaths.list,
    request: { query: z.object({ after: z.string().optional() }) },
    responses: {
      200: { description: 'ok', content: { 'application/json': { schema: z.object({ success: z.literal(true), data: z.array(Body) }) } } },
    },
  }),
}

describe('a route call is typed by its route', () => {
  const sender: Sender = { request: async () => ({ status: 200, data: undefined as never, headers: new Headers() }) }

  it('takes the params, query and body the route declares, and answers its data', () => {
    const call = routeCalls<typeof demoApi>(sender, demoPaths)
    expectTypeOf<ReturnType<typeof call<'create'>>>().resolves.toHaveProperty('data').toEqualTypeOf<{
      name: string
      amount?: number | undefined
    }>()
    expectTypeOf<RouteData<typeof budgetsApi.set>>().toEqualTypeOf<SetBudgetResult>()
    // Compiled, never run: each call is an error of `npm run typecheck`.
    const wrong = () => [
      // @ts-expect-error a body field the route does not have
      call('create', { params: { id: 'd1' }, body: { name: 'x', colour: 'red' } }),
      // @ts-expect-error a required body field missing
      call('create', { params: { id: 'd1' }, body: { amount: 1 } }),
      // @ts-expect-error the path's {id} missing
      call('create', { body: { name: 'x' } }),
      // @ts-expect-error a query field the route does not have
      call('list', { query: { before: 'x' } }),
      // @ts-expect-error a route the group does not have
      call('delete'),
    ]
    expect(typeof wrong).toBe('function')
  })

  it('is sent where the route is: an entry of paths.ts that differs from the definition does not compile', () => {
    const moved = { ...demoPaths, create: { method: 'post', path: '/api-v1/demos/{id}' } } as const
    // @ts-expect-error the definition's path is /api-v1/demo/{id}
    routeCalls<typeof demoApi>(sender, moved)
    const verb = { ...demoPaths, list: { method: 'post', path: '/api-v1/demo' } } as const
    // @ts-expect-error the definition's method is get
    routeCalls<typeof demoApi>(sender, verb)
    expect(fillPath(demoPaths.create.path, { id: 'a/b c' })).toBe('/api-v1/demo/a%2Fb%20c')
  })

  it("checks the client's calls against the service's routes", async () => {
    const { client, sent } = recording()
    // Compiled, never run: each call is an error of `npm run typecheck`.
    const wrong = () => [
      // @ts-expect-error SetBudgetRequest has no `amount` (it is `monthly`)
      client.budgets.set({ category: 'Rent', amount: '1200.00' }),
      // @ts-expect-error `monthly` is required
      client.budgets.set({ category: 'Rent' }),
      // @ts-expect-error DeleteBudgetsQuery requires `category`
      client.budgets.delete({ version: 'original' }),
    ]
    expect(typeof wrong).toBe('function')
    await client.budgets.set({ category: 'Rent', monthly: '1200.00' })
    await client.budgets.makeCurrent('q3 reforecast')
    await client.budgets.delete({ category: 'Rent', from: '2026-01' })
    expect(sent).toEqual([
      { method: 'POST', url: 'http://finctl.test/api-v1/budgets', body: { category: 'Rent', monthly: '1200.00' } },
      { method: 'POST', url: 'http://finctl.test/api-v1/budgets/versions/q3%20reforecast/current', body: undefined },
      { method: 'DELETE', url: 'http://finctl.test/api-v1/budgets?category=Rent&from=2026-01', body: undefined },
    ])
  })

  it('walks a list route page by page', async () => {
    const queries: unknown[] = []
    const pager: Sender = {
      request: async (_method, _path, o) => {
        queries.push(o?.query)
        const last = queries.length === 2
        return {
          status: 200,
          data: [] as never,
          headers: new Headers(),
          pagination: { limit: 1, next_cursor: last ? null : 'c1', has_more: !last, total: 2 },
        }
      },
    }
    const call = routeCalls<typeof demoApi>(pager, demoPaths)
    let pages = 0
    for await (const _ of call.pages('list', { query: { after: 'x' } })) pages++
    expect(pages).toBe(2)
    expect(queries).toEqual([
      { after: 'x', cursor: undefined },
      { after: 'x', cursor: 'c1' },
    ])
  })
})

// The answer types of the real routes, as the commands read them.
expectTypeOf<Awaited<ReturnType<Client['budgets']['set']>>>().toEqualTypeOf<SetBudgetResult>()
void budgetsPaths
