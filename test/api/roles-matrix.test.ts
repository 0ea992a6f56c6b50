/**
 * Every route of the served OpenAPI document x each role of docs/people.md, with a real user of that
 * role (invited, accepted, logged in): an auditor reads everything the roles table says and writes
 * nothing, a viewer reads the reports only, and so on. What a role may do is written out here from
 * the table in docs/people.md, not read from the middleware (the scope matrix per scope is in
 * test/hardening/security.test.ts).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROLES, type Role } from '../../src/kernel/roles.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'
import { expectWellFormed, routesOf, send, type Route } from '../hardening/lib.js'

const PUBLIC = new Set(['GET /healthz', 'GET /openapi.json', 'POST /auth/token', 'POST /auth/invitations/accept'])
const KEY_SELF = new Set(['/api-keys/me', '/api-keys/me/usage'])

type Want = 'allowed' | 'forbidden' | 'bad_request'

/** docs/people.md's table, route by route. */
function expected(role: Role, r: Route): Want {
  const read = r.method === 'GET'
  const owner = role === 'owner'
  // With a login, /api-keys/me has no key to show and /me/usage needs ?key_id=: 400 for everyone.
  if (KEY_SELF.has(r.path)) return 'bad_request'
  if (r.path.startsWith('/api-keys')) return owner ? 'allowed' : 'forbidden'
  if (/^\/api-v1\/(webhook-endpoints(\/|$)|events\/\{[^}]+\}\/resend$)/.test(r.path)) return owner ? 'allowed' : 'forbidden'
  if (r.path === '/api-v1/users/me') return 'allowed'
  if (r.path.startsWith('/api-v1/users')) return (read ? role !== 'viewer' : owner) ? 'allowed' : 'forbidden'
  // What a viewer reads: the reports, the company, budgets, recurring items, and the forecast (a read sent as a POST).
  if (r.method === 'POST' && r.path === '/api-v1/forecast') return 'allowed'
  if (read) {
    if (/^\/api-v1\/(reports\/|company$|budgets|recurring|forecast)/.test(r.path)) return 'allowed'
    return role === 'viewer' ? 'forbidden' : 'allowed'
  }
  // Approval policies: the owner sets the policy; deciding a proposal passes with write or close
  // (the step's own scope is the use case's), and under a policy a reopen may be proposed with write.
  // The close's document policy too (docs/closing.md): the owner's, as the approval policy.
  if (r.path === '/api-v1/policy' || r.path === '/api-v1/close/policy') return owner ? 'allowed' : 'forbidden'
  if (r.path.startsWith('/api-v1/approvals/') || r.path === '/api-v1/close/{month}/reopen')
    return role === 'auditor' || role === 'viewer' ? 'forbidden' : 'allowed'
  if (r.path.startsWith('/api-v1/close/')) return owner || role === 'accountant' ? 'allowed' : 'forbidden'
  // The exports' chart of accounts: an accountant maps it, as the owner and the bookkeeper may (docs/exporting.md).
  if (r.path === '/api-v1/exports/accounts-map') return role === 'auditor' || role === 'viewer' ? 'forbidden' : 'allowed'
  return owner || role === 'bookkeeper' ? 'allowed' : 'forbidden'
}

describe.each(MATRIX)('roles x routes over %s on %s', (kind, storeKind) => {
  let h: Harness
  let routes: Route[]
  const tokens = new Map<Role, string>()

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    const a = await h.tenant('Roles')
    tokens.set('owner', a.token)
    const owner = h.client({ token: a.token })
    for (const role of ROLES.filter((r) => r !== 'owner')) {
      const inv = await owner.users.invite({ email: `${role}-${randomUUID().slice(0, 8)}@roles.test`, role })
      tokens.set(role, (await h.client().acceptInvite(inv.token, 'a long enough password')).access_token)
    }
    const doc = (await (await h.raw('GET', '/openapi.json')).json()) as { paths: Record<string, Record<string, any>> }
    routes = routesOf(doc).filter((r) => !PUBLIC.has(`${r.method} ${r.path}`))
  })
  afterAll(async () => {
    await h?.close()
  })

  it.each(ROLES)('%s: every route answers as docs/people.md says', async (role) => {
    const counts = { allowed: 0, forbidden: 0, bad_request: 0 }
    const writesAllowed: string[] = []
    for (const r of routes) {
      const want = expected(role, r)
      const write = r.method !== 'GET'
      // Random ids and empty bodies: an allowed request ends in 404 or 400, and nothing changes.
      const a = await send(h.fetch, h.baseUrl + r.path.replace(/\{[^}]+\}/g, randomUUID()), {
        method: r.method,
        headers: { authorization: `Bearer ${tokens.get(role)}`, ...(write ? { 'content-type': 'application/json' } : {}) },
        body: write ? '{}' : undefined,
      })
      const label = `${role}: ${r.method} ${r.path} → ${a.status} ${a.text.slice(0, 200)}`
      expectWellFormed(a, label)
      if (want === 'forbidden') {
        expect(a.status, label).toBe(403)
        expect(a.body.error.code, label).toBe('forbidden')
      } else if (want === 'bad_request') expect(a.status, label).toBe(400)
      else {
        expect([401, 403], label).not.toContain(a.status)
        if (write) writesAllowed.push(`${r.method} ${r.path}`)
      }
      counts[want]++
    }
    if (role === 'auditor' || role === 'viewer') expect(writesAllowed).toEqual(['POST /api-v1/forecast'])
    if (role === 'viewer')
      expect(counts.allowed).toBe(
        routes.filter(
          (r) =>
            /^\/api-v1\/(reports\/|company$|users\/me$|forecast$)/.test(r.path) ||
            (r.method === 'GET' && /^\/api-v1\/(budgets|recurring)/.test(r.path)),
        ).length,
      )
    if (role === 'owner') expect(counts.forbidden).toBe(0)
    else expect(counts.forbidden).toBeGreaterThan(0)
    expect(counts.allowed).toBeGreaterThan(role === 'viewer' ? 2 : 20)
  })
})
