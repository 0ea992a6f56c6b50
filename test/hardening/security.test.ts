/**
 * Security properties over every route of the served OpenAPI document (so a new route is covered
 * the day it is added): 401 without credentials, tenant isolation (404 for another company's ids,
 * lists that never show them), the scope matrix of docs/api.md section 2, JWT attacks, immediate
 * revocation, no secret in `finctl serve` logs or error messages, and CSV formula neutralisation.
 */
import { randomUUID } from 'node:crypto'
import { parse as parseCsv } from 'csv-parse/sync'
import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printList } from '../../src/cli/output.js'
import { Sandbox, fastKey } from '../helpers/cli.js'
import { createHarness, signToken, STORES, TRANSPORTS, type Harness, type Tenant } from '../helpers/harness.js'
import { expectWellFormed, routesOf, send, serve, type Answer, type Route } from './lib.js'

/** The only routes that answer without credentials. */
const PUBLIC = new Set(['GET /healthz', 'GET /openapi.json', 'POST /auth/token', 'POST /auth/invitations/accept'])
const KEY_SELF = new Set(['/api-keys/me', '/api-keys/me/usage'])

type Creds = { apiKey?: string; token?: string }

function headersFor(creds: Creds, body?: unknown): Record<string, string> {
  return {
    ...(creds.apiKey !== undefined ? { 'x-api-key': creds.apiKey } : {}),
    ...(creds.token !== undefined ? { authorization: `Bearer ${creds.token}` } : {}),
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
  }
}

function request(h: Harness, method: string, path: string, creds: Creds, body?: unknown): Promise<Answer> {
  return send(h.fetch, h.baseUrl + path, {
    method,
    headers: headersFor(creds, body),
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

// A pending row's {line} is a number in the batch {id} names.
const fill = (path: string, id: string) =>
  path
    .replace('{line}', '2')
    .replace('{part}', '0')
    .replace(/\{[^}]+\}/g, encodeURIComponent(id))
const key = (r: Route) => `${r.method} ${r.path}`
const isWrite = (r: Route) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT'

/**
 * What docs/api.md section 2 says a credential may do on a route, written out independently of the
 * middleware: 'allowed', 'forbidden' (403), or 'bad_request' (400: /api-keys/me with a JWT).
 */
function expected(r: Route, kind: 'key' | 'jwt', scopes: string[]): 'allowed' | 'forbidden' | 'bad_request' {
  if (r.path.startsWith('/api-keys')) {
    if (KEY_SELF.has(r.path)) {
      if (kind === 'key') return 'allowed'
      // With a JWT: /me has no key to show; /me/usage needs ?key_id= (none is sent here).
      return 'bad_request'
    }
    if (kind === 'key') return 'forbidden'
    return scopes.includes('api_keys') ? 'allowed' : 'forbidden'
  }
  if (r.path.startsWith('/api-v1/')) {
    const base = r.method === 'GET' ? 'read' : 'write'
    const txPath =
      /^\/api-v1\/(transactions|imports)(\/|$)/.test(r.path) || /^\/api-v1\/bank-accounts\/\{[^}]+\}\/transactions$/.test(r.path)
    // Closing or reopening a month takes `close`; `write` alone does not (docs/api.md section 2).
    const closePath = /^\/api-v1\/close(\/|$)/.test(r.path) && base === 'write'
    // Webhook endpoints and a resend take `webhooks` alone, whatever the method (docs/api.md section 2).
    const webhookPath = /^\/api-v1\/(webhook-endpoints(\/|$)|events\/\{[^}]+\}\/resend$)/.test(r.path)
    // People (docs/people.md): writes take `users`; the list `read` or `users`; who am I, any scope.
    if (/^\/api-v1\/users(\/|$)/.test(r.path)) {
      if (base === 'write') return scopes.includes('users') ? 'allowed' : 'forbidden'
      if (r.path === '/api-v1/users/me') return scopes.length > 0 ? 'allowed' : 'forbidden'
      return scopes.includes('read') || scopes.includes('users') ? 'allowed' : 'forbidden'
    }
    // Approval policies (docs/people.md) and the close's document policy (docs/closing.md): `users` to set, `read` or `users` to read;
    // deciding a proposal passes with write, close or users, and a reopen may be proposed with write.
    if (r.path === '/api-v1/policy' || r.path === '/api-v1/close/policy')
      return (base === 'write' ? ['users'] : ['read', 'users']).some((s) => scopes.includes(s)) ? 'allowed' : 'forbidden'
    if (base === 'write' && r.path.startsWith('/api-v1/approvals/'))
      return ['write', 'close', 'users'].some((s) => scopes.includes(s)) ? 'allowed' : 'forbidden'
    if (r.path === '/api-v1/close/{month}/reopen') return ['close', 'write'].some((s) => scopes.includes(s)) ? 'allowed' : 'forbidden'
    // The exports' accounts map: `write` or `close` sets it (an accountant maps the chart; docs/api.md section 7).
    if (base === 'write' && r.path === '/api-v1/exports/accounts-map')
      return ['write', 'close'].some((s) => scopes.includes(s)) ? 'allowed' : 'forbidden'
    // A viewer's `reports` reads the reports and the company they are of, budgets, recurring items and
    // the forecast (a read sent as a POST).
    const reportRead =
      (base === 'read' && /^\/api-v1\/(reports\/|company$|budgets|recurring)/.test(r.path)) || r.path === '/api-v1/forecast'
    const accepted = webhookPath
      ? ['webhooks']
      : closePath
        ? ['close']
        : txPath
          ? [base, 'transactions']
          : reportRead
            ? ['read', 'reports']
            : [base]
    return accepted.some((s) => scopes.includes(s)) ? 'allowed' : 'forbidden'
  }
  return 'allowed'
}

interface World {
  h: Harness
  a: Tenant
  b: Tenant
  routes: Route[]
  /** A's transaction (category and merchant are markers), a second, an empty account, a key. */
  txA: string
  txA2: string
  emptyAccountA: string
  keyA: string
  markers: string[]
}

async function setUp(h: Harness): Promise<World> {
  const a = await h.tenant('Alpha')
  const b = await h.tenant('Bravo')
  const doc = (await (await h.raw('GET', '/openapi.json')).json()) as { paths: Record<string, Record<string, any>> }
  const ca = h.client({ apiKey: a.key })
  const marker = `secretcat${randomUUID().slice(0, 8)}`
  const merchant = `merch${randomUUID().slice(0, 8)}`
  const tx = await ca.transactions.create({
    bank_account_id: a.accountId,
    transaction_date: '2026-05-01',
    description: `desc ${marker}`,
    amount: '-42.00',
    category: marker,
    merchant_name: merchant,
    tags: [marker],
  })
  const tx2 = await ca.transactions.create({
    bank_account_id: a.accountId,
    transaction_date: '2026-05-02',
    description: 'second',
    amount: '7.00',
  })
  const empty = await ca.accounts.create({ name: `Empty ${marker}`, account_type: 'cash', currency_code: 'USD' })
  const k = await h.client({ token: a.token }).keys.create({ name: `key ${marker}`, scopes: ['read'] })
  // A statement of A, when the service has statements (the route list decides; best effort).
  if (doc.paths['/api-v1/statements']?.post) {
    const csv = 'Date,Description,Amount\n2026-05-03,Statement line,-1.00\n'
    await request(
      h,
      'POST',
      '/api-v1/statements',
      { apiKey: a.key },
      { bank_account_id: a.accountId, file_name: 'a.csv', format: 'csv', content_base64: Buffer.from(csv).toString('base64') },
    )
  }
  // A categorization rule of A (idOfA finds it through the list route), named with the marker.
  if (doc.paths['/api-v1/categorization-rules']?.post) {
    const rule = await request(
      h,
      'POST',
      '/api-v1/categorization-rules',
      { apiKey: a.key },
      { name: `rule ${marker}`, conditions: { description_contains: marker }, actions: { category: marker } },
    )
    expect(rule.status, rule.text).toBe(201)
  }
  // A proposal of A: with a policy on, a change of the policy waits for approval.
  if (doc.paths['/api-v1/approvals']?.get) {
    const owner = h.client({ token: a.token })
    await owner.policy.set({ require_approval: ['revert'] })
    expect((await owner.policy.set({ require_approval: [] })).proposal?.state).toBe('pending')
  }
  // A pending invitation of A (idOfA finds it through the list route).
  if (doc.paths['/api-v1/users/invitations']?.get)
    await h.client({ token: a.token }).users.invite({ email: `invited-${randomUUID().slice(0, 8)}@alpha.test`, role: 'viewer' })
  // A document of A linked to its transaction (idOfA finds it through the list route), its name the marker.
  const pdf = `%PDF-1.4\n% ${marker}\n%%EOF\n`
  const added = await ca.documents.add({
    file_name: `${marker}.pdf`,
    content_base64: Buffer.from(pdf).toString('base64'),
    transaction_id: tx.id,
  })
  return {
    h,
    a,
    b,
    routes: routesOf(doc),
    txA: tx.id,
    txA2: tx2.id,
    emptyAccountA: empty.id,
    keyA: k.id,
    markers: [a.companyId, tx.id, tx2.id, a.accountId, empty.id, k.id, marker, merchant, added.id],
  }
}

/** A real id of company A for a route's {id}: known fixtures first, else the first item A lists. */
async function idOfA(w: World, r: Route): Promise<string | undefined> {
  if (r.path.startsWith('/api-keys/')) return w.keyA
  if (r.path.startsWith('/api-v1/transactions/')) return w.txA
  if (r.path.startsWith('/api-v1/categorization/suggestions/')) return w.txA
  if (r.path.startsWith('/api-v1/bank-accounts/')) return r.method === 'DELETE' ? w.emptyAccountA : w.a.accountId
  // Webhook endpoints take the `webhooks` scope (the owner's login): A's first, made when A has none.
  if (r.path.startsWith('/api-v1/webhook-endpoints/')) {
    const hooks = w.h.client({ token: w.a.token }).webhooks
    return (await hooks.list())[0]?.id ?? (await hooks.create({ url: 'http://127.0.0.1:9/hook', events: ['*'] })).id
  }
  // A budget version and a recurring item: made for A when the test reaches their routes.
  if (r.path.startsWith('/api-v1/budgets/versions/')) {
    await w.h.client({ apiKey: w.a.key }).budgets.set({ category: 'Security', monthly: '1', from: '2030-01', to: '2030-01' })
    return 'original'
  }
  if (r.path.startsWith('/api-v1/recurring/')) {
    const c = w.h.client({ apiKey: w.a.key })
    return (
      (await c.recurring.list())[0]?.id ??
      (await c.recurring.add({ name: 'Security rent', amount: '-1', interval: 'monthly', start: '2030-01-01' })).id
    )
  }
  const collection = r.path.slice(0, r.path.indexOf('/{'))
  const list = await request(w.h, 'GET', collection, { apiKey: w.a.key })
  return list.status === 200 && Array.isArray(list.body?.data) ? list.body.data[0]?.id : undefined
}

/** A body the route's validation accepts, so that only the ownership check can refuse it. */
function validBody(w: World, r: Route, forB: boolean): unknown {
  const t = forB ? w.b : w.a
  switch (key(r)) {
    case 'PATCH /api-v1/transactions/{id}':
      return { category: 'hijacked' }
    case 'POST /api-v1/transactions/{id}/notes':
      return { text: 'hijacked' }
    case 'PATCH /api-v1/bank-accounts/{id}':
      return { name: 'hijacked' }
    case 'POST /api-v1/transactions':
      return { bank_account_id: t.accountId, transaction_date: '2026-05-05', description: 'x', amount: '1.00' }
    case 'POST /api-v1/imports/{id}/finish':
      return { state: 'completed' }
    case 'POST /api-v1/users/{id}/role':
      return { role: 'viewer' }
    case 'POST /api-v1/imports/{id}/pending':
      return { rows: [] }
    case 'PATCH /api-v1/imports/{id}/pending/{line}':
      return { category: 'hijacked' }
    case 'POST /api-v1/approvals/{id}/reject':
      return { reason: 'hijacked' }
    case 'POST /api-v1/documents/{id}/links':
      return { transaction_id: w.txA }
    case 'PUT /api-v1/imports/{id}/file/{part}':
      return { content_base64: 'eA==' }
    case 'POST /api-v1/imports/{id}/remap':
      return { invert_sign: true }
    default:
      return isWrite(r) ? {} : undefined
  }
}

const credsFor = (t: Tenant, r: Route): Creds =>
  (r.path.startsWith('/api-keys') && !KEY_SELF.has(r.path)) || /^\/api-v1\/(webhook-endpoints|events\/\{id\}\/resend|users\/)/.test(r.path)
    ? { token: t.token }
    : { apiKey: t.key }

describe.each(STORES)('security over the embedded core on %s', (storeKind) => {
  let w: World
  beforeAll(async () => {
    w = await setUp(await createHarness('embedded', storeKind))
  })
  afterAll(async () => {
    await w?.h.close()
  })

  it('(a) every route refuses a request without credentials with 401, except the three public ones', async () => {
    expect(w.routes.length).toBeGreaterThanOrEqual(20)
    const documentedPublic = w.routes.filter((r) => !r.security?.length).map(key)
    expect(new Set([...documentedPublic, 'GET /openapi.json'])).toEqual(PUBLIC)
    const openapi: Route = { method: 'GET', path: '/openapi.json', security: undefined, queryParams: [] }
    for (const r of [...w.routes, openapi]) {
      const path = fill(r.path, randomUUID())
      const body = isWrite(r) ? {} : undefined
      if (PUBLIC.has(key(r))) {
        const a = await request(w.h, r.method, path, {}, body)
        expect(a.status, key(r)).not.toBe(401)
        expect(a.status, key(r)).toBeLessThan(500)
        continue
      }
      for (const creds of [{}, { apiKey: '' }, { token: '' }, { apiKey: ' ' }] as Creds[]) {
        const a = await request(w.h, r.method, path, creds, body)
        expectWellFormed(a, `${key(r)} with ${JSON.stringify(creds)}`)
        expect({ route: key(r), creds, status: a.status, code: a.body.error?.code }).toEqual({
          route: key(r),
          creds,
          status: 401,
          code: 'unauthorized',
        })
      }
    }
  })

  it("(b) every {id} route answers company B with 404 for company A's real ids, and changes nothing of A's", async () => {
    // Exchange rates are keyed by date and currency within the caller's own table, not by an id: below;
    // closing by a month of the caller's own company.
    const withId = w.routes.filter(
      (r) => r.path.includes('{') && !r.path.startsWith('/api-v1/exchange-rates/') && !r.path.startsWith('/api-v1/close/'),
    )
    expect(withId.length).toBeGreaterThanOrEqual(8)
    const unseeded: string[] = []
    for (const r of withId) {
      const id = await idOfA(w, r)
      if (!id) unseeded.push(key(r))
      const path = fill(r.path, id ?? randomUUID())
      const a = await request(w.h, r.method, path, credsFor(w.b, r), validBody(w, r, true))
      expectWellFormed(a, `B: ${r.method} ${path}`)
      expect({ route: key(r), status: a.status, code: a.body.error?.code }).toEqual({ route: key(r), status: 404, code: 'not_found' })
      for (const m of w.markers) expect(a.text, `B's 404 on ${key(r)} reveals ${m}`).not.toContain(m === id ? '\u0000' : m)
    }
    // Only routes whose resource A cannot create in this test may go without a real id.
    expect(
      unseeded.filter((r) => !r.includes('/statements')),
      'routes tested with a random id only',
    ).toEqual([])

    // Ids in bodies and queries are scoped too.
    const bulk = await request(
      w.h,
      'POST',
      '/api-v1/transactions/bulk-update',
      { apiKey: w.b.key },
      { transaction_ids: [w.txA], updates: { category: 'hijacked' } },
    )
    expect(bulk.status).toBe(404)
    const bulkDelete = await request(w.h, 'POST', '/api-v1/transactions/bulk-delete', { apiKey: w.b.key }, { transaction_ids: [w.txA] })
    expect(bulkDelete.status).toBe(404)
    const create = await request(
      w.h,
      'POST',
      '/api-v1/transactions',
      { apiKey: w.b.key },
      validBody(w, { method: 'POST', path: '/api-v1/transactions', security: [], queryParams: [] }, false),
    )
    expect(create.status).toBe(404)
    const batch = await request(
      w.h,
      'POST',
      '/api-v1/transactions/batch',
      { apiKey: w.b.key },
      { transactions: [{ bank_account_id: w.a.accountId, transaction_date: '2026-05-05', description: 'x', amount: '1.00' }] },
    )
    expectWellFormed(batch, 'B batch on A account')
    if (batch.status === 201) expect(batch.body.data.created).toEqual([])
    const usage = await request(w.h, 'GET', `/api-keys/me/usage?key_id=${w.keyA}`, { token: w.b.token })
    expect(usage.status).toBe(404)

    // A's exchange rate: B's delete finds none of its own (404); B's set writes B's table, never A's.
    const ratesA = w.h.client({ apiKey: w.a.key }).rates
    await ratesA.set('2026-05-05', 'EUR', { rate: '1.1' })
    const rateB = (method: string, body?: unknown) =>
      request(w.h, method, '/api-v1/exchange-rates/2026-05-05/EUR', { apiKey: w.b.key }, body)
    expect((await rateB('DELETE')).status).toBe(404)
    expect((await rateB('PUT', { rate: '9' })).status).toBe(200)
    expect((await rateB('DELETE')).status).toBe(200)
    expect((await ratesA.list({ currency: 'EUR' })).data.map((r) => r.rate)).toEqual(['1.1'])

    // A's records are as they were.
    const ca = w.h.client({ apiKey: w.a.key })
    const tx = (await ca.transactions.get(w.txA)) as { category: string; status: string }
    expect(tx.category).toBe(w.markers[6])
    expect(tx.status).toBe('pending')
    expect((await ca.transactions.get(w.txA2)).id).toBe(w.txA2)
    expect((await ca.accounts.get(w.emptyAccountA)).name).toContain('Empty')
    expect((await ca.accounts.get(w.a.accountId)).name).toBe('Operating')
    const keys = await w.h.client({ token: w.a.token }).keys.list()
    expect(keys.find((k) => k.id === w.keyA)?.revoked_at).toBeNull()
    const count = await w.h.store.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_key', '=', await w.h.store.tx.companyKey(w.a.companyId))
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBeGreaterThanOrEqual(2)
  })

  it("(b) no list route ever shows company A's rows to company B, even when asked for them", async () => {
    const lists = w.routes.filter((r) => r.method === 'GET' && !r.path.includes('{') && !PUBLIC.has(key(r)))
    expect(lists.length).toBeGreaterThanOrEqual(5)
    // A's own lists do show the markers (proof that the search below can find them).
    const own = await request(w.h, 'GET', '/api-v1/transactions', { apiKey: w.a.key })
    expect(own.text).toContain(w.markers[6])
    const cursorOfA = (await request(w.h, 'GET', '/api-v1/transactions?limit=1', { apiKey: w.a.key })).body.pagination.next_cursor as string
    expect(cursorOfA).toBeTruthy()
    const keysOfA = (await w.h.store.db.selectFrom('api_keys').select('id').where('company_id', '=', w.a.companyId).execute()).map(
      (k) => k.id,
    )
    expect(keysOfA.length).toBeGreaterThan(0)
    for (const r of lists) {
      const queries = ['']
      if (r.queryParams.includes('bank_account_id')) queries.push(`?bank_account_id=${w.a.accountId}`)
      if (r.queryParams.includes('q')) queries.push(`?q=${w.markers[6]}`)
      if (r.queryParams.includes('category')) queries.push(`?category=${w.markers[6]}`)
      if (r.queryParams.includes('tag')) queries.push(`?tag=${w.markers[6]}`)
      if (r.queryParams.includes('cursor')) queries.push(`?cursor=${encodeURIComponent(cursorOfA)}`)
      if (r.queryParams.includes('key_id')) queries.push(`?key_id=${w.keyA}`)
      for (const creds of [{ apiKey: w.b.key }, { token: w.b.token }] as Creds[]) {
        for (const q of queries) {
          const a = await request(w.h, 'GET', r.path + q, creds)
          expectWellFormed(a, `B: GET ${r.path}${q}`)
          if (r.path === '/api-v1/logs') {
            // B's request log holds B's own requests, whose paths name the ids of A that B asked for
            // above: what it must never hold is a request made with a key of A.
            const records = a.body.data as Array<{ key_id: string }>
            expect(records.length, 'B sees its own requests').toBeGreaterThan(0)
            for (const rec of records) expect(keysOfA, `B's GET ${r.path}${q} shows a request of A's key`).not.toContain(rec.key_id)
            continue
          }
          for (const m of w.markers) expect(a.text, `B's GET ${r.path}${q} shows A's ${m}`).not.toContain(m)
        }
      }
    }
  })

  it('(c) scope matrix: every route x each key scope and JWT scope set answers as docs/api.md section 2 says', async () => {
    const admin = w.h.client({ token: w.a.token })
    const limits = { rate_limit_per_minute: 1_000_000, rate_limit_per_day: 100_000_000 }
    const keys: Array<{ scopes: string[]; creds: Creds; kind: 'key' | 'jwt' }> = []
    for (const scopes of [['read'], ['write'], ['transactions'], ['close'], ['webhooks']] as const) {
      const k = await admin.keys.create({ name: `scope ${scopes.join()}`, scopes: [...scopes], ...limits })
      keys.push({ scopes: [...scopes], creds: { apiKey: k.key }, kind: 'key' })
    }
    const claims = JSON.parse(Buffer.from(w.a.token.split('.')[1], 'base64url').toString()) as { sub: string; cid: string }
    for (const scopes of [
      [],
      ['read'],
      ['write'],
      ['transactions'],
      ['api_keys'],
      ['close'],
      ['webhooks'],
      ['users'],
      ['reports'],
      ['read', 'write', 'transactions', 'api_keys', 'close', 'webhooks', 'users', 'reports'],
    ]) {
      keys.push({ scopes, creds: { token: await signToken(w.h.store, { sub: claims.sub, cid: claims.cid, scopes }, 600) }, kind: 'jwt' })
    }
    let allowed = 0
    let forbidden = 0
    for (const r of w.routes) {
      if (PUBLIC.has(key(r))) continue
      // Random ids and empty bodies: an allowed request ends in 404 or 400, and nothing changes.
      const path = fill(r.path, randomUUID())
      for (const k of keys) {
        const want = expected(r, k.kind, k.scopes)
        const a = await request(w.h, r.method, path, k.creds, isWrite(r) ? {} : undefined)
        const label = `${r.method} ${r.path} with ${k.kind} [${k.scopes.join(',')}] → ${a.status} ${a.text.slice(0, 200)}`
        expectWellFormed(a, label)
        if (want === 'forbidden') {
          expect(a.status, label).toBe(403)
          expect(a.body.error.code, label).toBe('forbidden')
          forbidden++
        } else if (want === 'bad_request') {
          expect(a.status, label).toBe(400)
        } else {
          expect([401, 403], label).not.toContain(a.status)
          allowed++
        }
      }
    }
    expect(allowed).toBeGreaterThan(40)
    expect(forbidden).toBeGreaterThan(40)
  })

  it('(d) JWT attacks: alg none, wrong secret, RS/HS confusion, other algorithms, expired, no or a far exp, tampered, foreign subject → 401', async () => {
    const [head, payload, sig] = w.a.token.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown> & { sub: string; cid: string }
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const now = Math.floor(Date.now() / 1000)
    const good = { ...claims, iat: now, exp: now + 600 }
    const sign = (alg: string, secret: Uint8Array, body: Record<string, unknown> = good) =>
      new SignJWT(body).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret)
    const rsa = await generateKeyPair('RS256')
    const ec = await generateKeyPair('ES256')
    const { exportSPKI } = await import('jose')
    const rsaPublicPem = await exportSPKI(rsa.publicKey)
    const secretRow = await w.h.store.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()
    const realSecret = new TextEncoder().encode(secretRow.value)
    const bClaims = JSON.parse(Buffer.from(w.b.token.split('.')[1], 'base64url').toString()) as { sub: string; cid: string }

    const attacks: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'alg None, signature kept': `${b64({ alg: 'None', typ: 'JWT' })}.${payload}.${sig}`,
      'alg none, lower scopes raised': `${b64({ alg: 'none' })}.${b64({ ...good, scopes: ['read', 'write', 'transactions', 'api_keys'] })}.`,
      'HS256 with a wrong secret': await sign('HS256', new TextEncoder().encode('secret')),
      'HS256 with an empty-ish secret': await sign('HS256', new Uint8Array(32)),
      'HS256 keyed with an RSA public key (RS/HS confusion)': await sign('HS256', new TextEncoder().encode(rsaPublicPem)),
      'RS256 signed with an attacker key': await new SignJWT(good).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey),
      'ES256 signed with an attacker key': await new SignJWT(good).setProtectedHeader({ alg: 'ES256' }).sign(ec.privateKey),
      'HS512 with the real secret (algorithm not allowed)': await sign('HS512', realSecret),
      expired: await signToken(w.h.store, { sub: claims.sub, cid: claims.cid, scopes: ['read', 'write', 'transactions', 'api_keys'] }, -5),
      'tampered payload (company of B)': `${head}.${b64({ ...claims, cid: bClaims.cid })}.${sig}`,
      'tampered payload (more scopes)': `${head}.${b64({ ...claims, scopes: ['read', 'write', 'transactions', 'api_keys', 'admin'] })}.${sig}`,
      'tampered signature': `${head}.${payload}.${sig.slice(0, -4)}${sig.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`,
      'wrong issuer (real secret)': await sign('HS256', realSecret, { ...good, iss: 'evil' }),
      "B's user with A's company (real secret)": await sign('HS256', realSecret, { ...good, sub: bClaims.sub, cid: claims.cid }),
      'unknown user (real secret)': await sign('HS256', realSecret, { ...good, sub: randomUUID() }),
      'not before in the future (real secret)': await sign('HS256', realSecret, { ...good, nbf: now + 3600 }),
      'no exp (real secret)': await sign('HS256', realSecret, { ...good, exp: undefined }),
      'no iat (real secret)': await sign('HS256', realSecret, { ...good, iat: undefined }),
      'exp 100 years ahead (real secret)': await sign('HS256', realSecret, { ...good, exp: now + 100 * 365 * 86_400 }),
      'exp a day and an hour after iat (real secret)': await sign('HS256', realSecret, { ...good, exp: now + 25 * 3600 }),
      'iat and exp both a year ahead (real secret)': await sign('HS256', realSecret, {
        ...good,
        iat: now + 365 * 86_400,
        exp: now + 366 * 86_400 - 3600,
      }),
      'two tokens': `${w.a.token} ${w.a.token}`,
      garbage: 'eyJ.eyJ.eyJ',
      'an API key as a token': w.a.key,
    }
    const targets: Array<[string, string, unknown]> = [
      ['GET', '/api-keys', undefined],
      ['GET', '/api-v1/transactions', undefined],
      [
        'POST',
        '/api-v1/transactions',
        { bank_account_id: w.a.accountId, transaction_date: '2026-05-05', description: 'jwt attack', amount: '1.00' },
      ],
      ['DELETE', `/api-keys/${w.keyA}`, undefined],
    ]
    for (const [name, token] of Object.entries(attacks)) {
      for (const [method, path, body] of targets) {
        for (const authorization of [token, `Bearer ${token}`]) {
          const a = await send(w.h.fetch, w.h.baseUrl + path, {
            method,
            headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          })
          expectWellFormed(a, `${name}: ${method} ${path}`)
          expect({ name, method, path, status: a.status, code: a.body.error?.code }).toEqual({
            name,
            method,
            path,
            status: 401,
            code: 'unauthorized',
          })
          expect(a.text, `${name}: the answer echoes the token`).not.toContain(token.slice(-20))
        }
      }
    }
    // Nothing was done: no transaction "jwt attack", A's key not revoked.
    const list = await w.h.client({ apiKey: w.a.key }).transactions.list({ q: 'jwt attack' })
    expect(list.data).toEqual([])
    expect((await w.h.client({ token: w.a.token }).keys.list()).find((k) => k.id === w.keyA)?.revoked_at).toBeNull()
    // The genuine token still works (the checks above were not all-refusing).
    expect((await request(w.h, 'GET', '/api-keys', { token: w.a.token })).status).toBe(200)
  })
})

describe.each(TRANSPORTS)('(e) revocation over %s', (kind) => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness(kind, 'sqlite')
    a = await h.tenant('Revoker')
  })
  afterAll(async () => {
    await h?.close()
  })

  it('a revoked key is refused by the very next request, and by every concurrent one after it', async () => {
    const admin = h.client({ token: a.token })
    for (let round = 0; round < 3; round++) {
      const k = await admin.keys.create({
        name: `revoke me ${round}`,
        scopes: ['read', 'write', 'transactions'],
        rate_limit_per_minute: 100_000,
        rate_limit_per_day: 1_000_000,
      })
      // Warm every cache there might be.
      for (let i = 0; i < 5; i++) expect((await request(h, 'GET', '/api-v1/transactions?limit=1', { apiKey: k.key })).status).toBe(200)
      const revoked = await request(h, 'DELETE', `/api-keys/${k.id}`, { token: a.token })
      expect(revoked.status).toBe(200)
      expect(revoked.body.data.is_active).toBe(false)
      const next = await request(h, 'GET', '/api-v1/transactions?limit=1', { apiKey: k.key })
      expect(next.status).toBe(401)
      expect(next.body.error.message).toMatch(/revoked/)
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? request(h, 'GET', '/api-keys/me', { apiKey: k.key })
            : request(
                h,
                'POST',
                '/api-v1/transactions',
                { apiKey: k.key },
                { bank_account_id: a.accountId, transaction_date: '2026-05-05', description: `after revoke ${round}`, amount: '1.00' },
              ),
        ),
      )
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(401))
    }
    const made = await h.client({ apiKey: a.key }).transactions.list({ q: 'after revoke' })
    expect(made.data).toEqual([])
  })
})

describe('(f) no secret in finctl serve logs or error messages', () => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness('embedded', 'sqlite')
    a = await h.tenant('Logger')
  })
  afterAll(async () => {
    await h?.close()
  })

  it('keys, tokens and passwords never reach stderr (even at debug level) nor an error answer', async () => {
    const server = await serve(h.database, ['--log-level', 'debug'])
    const errors: Answer[] = []
    const all: Answer[] = []
    const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
      const r = await send(fetch, server.url + path, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      all.push(r)
      if (r.status >= 400) errors.push(r)
      return r
    }
    const wrongPassword = `Wr0ng-${randomUUID()}`
    let fresh: string
    let freshId: string
    try {
      const tok = await call('POST', '/auth/token', {}, { email: a.email, password: a.password })
      expect(tok.status).toBe(200)
      const token = tok.body.data.access_token as string
      expect((await call('POST', '/auth/token', {}, { email: a.email, password: wrongPassword })).status).toBe(401)
      expect((await call('POST', '/auth/token', {}, { email: `nobody-${a.email}`, password: a.password })).status).toBe(401)
      const created = await call('POST', '/api-keys', { authorization: `Bearer ${token}` }, { name: 'logged', scopes: ['read'] })
      expect(created.status).toBe(201)
      fresh = created.body.data.key
      freshId = created.body.data.id
      expect((await call('GET', '/api-v1/transactions', { 'x-api-key': a.key })).status).toBe(200)
      expect(
        (await call('GET', `/api-v1/transactions?api_key=${a.key}&token=${token}&password=${a.password}`, { 'x-api-key': fresh })).status,
      ).toBe(400)
      expect((await call('GET', `/api-v1/${a.key}`, { 'x-api-key': fresh })).status).toBe(404)
      expect((await call('GET', '/api-v1/company', { 'x-api-key': `${a.key}x` })).status).toBe(401)
      expect((await call('GET', '/api-v1/company', { 'x-api-key': a.key.slice(0, -1) + (a.key.endsWith('A') ? 'B' : 'A') })).status).toBe(
        401,
      )
      expect((await call('GET', '/api-keys', { authorization: `Bearer ${token}x` })).status).toBe(401)
      expect((await call('GET', '/api-keys', { authorization: `${a.key}` })).status).toBe(401)
      expect((await call('GET', '/api-keys', { 'x-api-key': a.key })).status).toBe(403)
      expect(
        (
          await call(
            'POST',
            '/api-v1/transactions',
            { 'x-api-key': fresh },
            { bank_account_id: a.accountId, transaction_date: '2026-01-01', description: 'x', amount: '1' },
          )
        ).status,
      ).toBe(403)
      expect((await call('DELETE', `/api-keys/${freshId}`, { authorization: token })).status).toBe(200)
      expect((await call('GET', '/api-v1/company', { 'x-api-key': fresh })).status).toBe(401)
      expect((await call('POST', '/auth/token', {}, { email: a.email, password: 'p'.repeat(2000) })).status).toBe(400)
      // Bad JSON that holds a password and a key.
      const bad = await send(fetch, `${server.url}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"email":"${a.email}","password":"${a.password}",`,
      })
      expect(bad.status).toBe(400)
      errors.push(bad)

      const stopped = await server.stop()
      expect(stopped.code).toBe(0)
      const log = server.stderr()
      // The log did record these requests (so an empty log cannot pass).
      const lines = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string })
      expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(all.length)
      const secrets: Record<string, string> = {
        'API key': a.key,
        'secret part of the API key': a.key.slice(12),
        'new API key': fresh,
        'secret part of the new key': fresh.slice(12),
        'access token': token,
        'token signature': token.split('.')[2],
        'harness token signature': a.token.split('.')[2],
        password: a.password,
        'wrong password': wrongPassword,
      }
      for (const [what, secret] of Object.entries(secrets)) {
        expect(log.includes(secret), `the serve log holds the ${what}`).toBe(false)
        for (const e of errors) {
          // Never in an error answer, except a path the caller wrote itself (404 "no route for ...").
          if (e.body?.error?.message?.startsWith('no route for')) continue
          expect(e.text.includes(secret), `an error answer (${e.status} ${e.text.slice(0, 120)}) holds the ${what}`).toBe(false)
        }
      }
      expect(errors.length).toBeGreaterThanOrEqual(12)
    } finally {
      await server.stop('SIGKILL').catch(() => {})
    }
  })
})

describe('(g) CSV output neutralises spreadsheet formulas', () => {
  let sb: Sandbox
  beforeAll(async () => {
    sb = new Sandbox('hardening-csv')
    await sb.ok(['init', '--no-input', '--company', 'CSV Co'])
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  // Descriptions as the service stores them (it trims surrounding whitespace).
  const FORMULAS = [
    '=1+1',
    '=HYPERLINK("http://evil.test","x")',
    '+1+1',
    "-2+3+cmd|' /C calc'!A0",
    '-1+1',
    '@SUM(A1:A9)',
    '=cmd|" /C calc"!A0',
  ]
  const PLAIN = ['-12.50', 'Office chairs', '42', "'already quoted"]

  it('tx list --output csv prefixes every cell that a spreadsheet would run, and keeps amounts numbers', async () => {
    const account = await sb.json<{ id: string }>([
      'accounts',
      'create',
      '--name',
      '=Evil account',
      '--type',
      'checking',
      '--currency',
      'USD',
      '--json',
    ])
    for (const [i, d] of [...FORMULAS, ...PLAIN].entries()) {
      await sb.ok([
        'tx',
        'create',
        '--account',
        account.id,
        '--date',
        `2026-06-${String(i + 1).padStart(2, '0')}`,
        `--description=${d}`,
        '--amount=-12.50',
        `--category=${i === 0 ? '@risky' : 'plain'}`,
        '--json',
      ])
    }
    const r = await sb.ok(['tx', 'list', '--output', 'csv', '--all', '--sort', 'transaction_date'])
    const rows = parseCsv(r.stdout, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(FORMULAS.length + PLAIN.length)
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['description', 'amount', 'currency', 'category']))
    for (const [i, d] of FORMULAS.entries()) expect(rows[i].description, d).toBe(`'${d}`)
    for (const [i, d] of PLAIN.entries()) expect(rows[FORMULAS.length + i].description, d).toBe(d)
    for (const row of rows) expect([row.amount, row.currency]).toEqual(['-12.50', 'USD'])
    expect(rows[0].category).toBe("'@risky")
    // No cell at all starts with a formula character unless it is a plain signed amount.
    for (const row of rows)
      for (const cell of Object.values(row)) if (/^[=+\-@\t\r]/.test(cell)) expect(cell).toMatch(/^[+-]?\d[\d.,]*( [A-Z]{3})?$/)

    const accounts = await sb.ok(['accounts', 'list', '--output', 'csv'])
    expect(accounts.stdout).toContain("'=Evil account")
    expect(accounts.stdout).not.toMatch(/(^|,)=Evil/m)
  })

  it('the CSV writer also neutralises cells starting with a tab or a carriage return (quoted per RFC 4180)', async () => {
    let out = ''
    const io = {
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: () => true },
      isStdoutTTY: false,
      isStderrTTY: false,
    } as never
    const cells = ['\t=1+1', '\r=1+1', '=A1', '-5', '-5.25 EUR', '-5+5', '+5', 'x=1']
    await printList(io, { format: 'csv', color: false, quiet: true }, cells, [{ header: 'v', value: (s: string) => s }])
    const parsed = (parseCsv(out, { columns: true }) as Array<{ v: string }>).map((r) => r.v)
    // A lone carriage return is shown as \x0d (terminal-text.ts): the cell no longer starts with a formula.
    expect(parsed).toEqual(["'\t=1+1", '\\x0d=1+1', "'=A1", '-5', '-5.25 EUR', "'-5+5", '+5', 'x=1'])
  })
})
