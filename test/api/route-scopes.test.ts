/**
 * Every route declares the scopes it accepts where it is defined (its OpenAPI `security`), and the
 * scope check reads that declaration: the served document lists each operation's scopes, and a route
 * that declares none is refused, never let through. What each scope allows route by route is
 * test/hardening/security.test.ts's matrix.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { OpenAPIHono } from '@hono/zod-openapi'
import { openApiDocument } from '../../scripts/docs/openapi-document.js'
import type { Actor } from '../../src/domain/actor.js'
import type { AppEnv } from '../../src/api/env.js'
import { onError } from '../../src/api/errors.js'
import { requireScopes, scopeTable, type ScopeTable } from '../../src/api/middleware/scopes.js'
import { accepts, ANY_CREDENTIAL, loginAccepts } from '../../src/api/openapi.js'
import { JWT_SCOPES, type Scope } from '../../src/kernel/vocabulary.js'
import { routesOf } from '../hardening/lib.js'

/** The operations that take no credentials, and a key's own (any credential, whatever its scopes). */
const PUBLIC = new Set(['GET /healthz', 'POST /auth/token', 'POST /auth/invitations/accept'])
const ANY = new Set(['GET /api-keys/me', 'GET /api-keys/me/usage'])

describe('the served OpenAPI document', async () => {
  const routes = routesOf(JSON.parse(await openApiDocument()))

  it('lists the scopes of every operation that takes credentials', () => {
    expect(routes.length).toBeGreaterThan(100)
    for (const r of routes) {
      const key = `${r.method} ${r.path}`
      if (PUBLIC.has(key)) {
        expect(r.security ?? [], key).toEqual([])
        continue
      }
      expect(r.security?.length, `${key} declares no security`).toBeGreaterThan(0)
      const scopes = r.security!.flatMap((req) => Object.values(req).flat())
      if (ANY.has(key)) expect(scopes, key).toEqual([])
      else {
        expect(scopes.length, `${key} lists no scope`).toBeGreaterThan(0)
        for (const s of scopes) expect(JWT_SCOPES, `${key}: ${s}`).toContain(s)
        // One scope per requirement: holding any one of them suffices.
        for (const req of r.security!) for (const listed of Object.values(req)) expect(listed, key).toHaveLength(1)
      }
      for (const req of r.security!) for (const scheme of Object.keys(req)) expect(['ApiKey', 'Bearer'], key).toContain(scheme)
    }
  })

  it('lists a login alone for key administration, and accepts for the special cases what docs/api.md says', () => {
    const scopesOf = (method: string, path: string) => {
      const r = routes.find((x) => x.method === method && x.path === path)
      expect(r, `${method} ${path}`).toBeDefined()
      return [...new Set(r!.security!.flatMap((req) => Object.values(req).flat()))]
    }
    for (const r of routes.filter((x) => x.path.startsWith('/api-keys') && !ANY.has(`${x.method} ${x.path}`)))
      expect(r.security, r.path).toEqual([{ Bearer: ['api_keys'] }])
    expect(scopesOf('POST', '/api-v1/close/{month}/reopen')).toEqual(['close', 'write'])
    expect(scopesOf('POST', '/api-v1/forecast')).toEqual(['read', 'reports'])
    expect(scopesOf('POST', '/api-v1/events/{id}/resend')).toEqual(['webhooks'])
    expect(scopesOf('GET', '/api-v1/users/me')).toEqual([...JWT_SCOPES])
    expect(scopesOf('GET', '/api-v1/bank-accounts/{id}/transactions')).toEqual(['read', 'transactions'])
  })
})

describe('the scope check reads the matched route', () => {
  const actor = (scopes: Scope[]): Actor => ({ companyId: 'c', kind: 'jwt', userId: 'u', scopes })
  const ok = { 200: { description: 'OK', content: { 'application/json': { schema: z.object({ ok: z.boolean() }) } } } }

  function app(scopes: Scope[]) {
    const a = new OpenAPIHono<AppEnv>()
    a.use('*', async (c, next) => {
      c.set('requestId', 'r')
      c.set('actor', actor(scopes))
      await next()
    })
    let table: ScopeTable = new Map()
    const declared = () => table
    a.use('/x/*', requireScopes(declared))
    a.use('/y/*', requireScopes(declared, { unrouted: ['write'] }))
    a.openapi(createRoute({ method: 'get', path: '/x/read', security: accepts('read', 'reports'), responses: ok }), (c) =>
      c.json({ ok: true }, 200),
    )
    a.openapi(createRoute({ method: 'get', path: '/x/{id}', security: loginAccepts('users'), responses: ok }), (c) =>
      c.json({ ok: true }, 200),
    )
    a.openapi(createRoute({ method: 'get', path: '/x/any/thing', security: ANY_CREDENTIAL, responses: ok }), (c) =>
      c.json({ ok: true }, 200),
    )
    // Forgotten: no `security`.
    a.openapi(createRoute({ method: 'post', path: '/x/read', responses: ok }), (c) => c.json({ ok: true }, 200))
    a.onError((err, c) => onError(err, c, ':memory:'))
    table = scopeTable(a)
    return a
  }

  it('lets through a credential holding any one declared scope, and refuses one holding none', async () => {
    expect((await app(['reports']).request('/x/read')).status).toBe(200)
    expect((await app(['read']).request('/x/read')).status).toBe(200)
    const refused = await app(['write', 'users']).request('/x/read')
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'this credential lacks the read or reports scope needed for GET /x/read',
    )
  })

  it('reads the route the request matched, not the path: the first route of its method answers', async () => {
    // /x/read is matched by both /x/read and /x/{id}; the first, which answers, decides.
    expect((await app(['read']).request('/x/read')).status).toBe(200)
    expect((await app(['read']).request('/x/other')).status).toBe(403)
    expect((await app(['users']).request('/x/other')).status).toBe(200)
    expect((await app([]).request('/x/any/thing')).status).toBe(200)
  })

  it("refuses a route that declares no scopes; a path with no route takes its mount's scopes, else the 404", async () => {
    const forgotten = await app([...JWT_SCOPES]).request('/x/read', { method: 'POST' })
    expect(forgotten.status).toBe(403)
    expect(((await forgotten.json()) as { error: { message: string } }).error.message).toBe('POST /x/read declares no scopes: refused')
    expect((await app([]).request('/x/a/b/c')).status).toBe(404)
    // A mount may name the scopes a path without a route takes there (/api-keys: a login with api_keys).
    expect((await app(['read']).request('/y/none')).status).toBe(403)
    expect((await app(['write']).request('/y/none')).status).toBe(404)
  })
})
