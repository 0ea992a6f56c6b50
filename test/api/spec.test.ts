/**
 * The three operations the service interface specifies (4.1 usage, 4.2 key listing, 4.3 create
 * transaction), field by field, through both transports.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, signToken, type Harness, type Tenant } from '../helpers/harness.js'

const TRANSACTION_FIELDS = [
  'id',
  'transaction_date',
  'posted_date',
  'description',
  'original_description',
  'amount',
  'currency_code',
  'exchange_rate',
  'exchange_rate_date',
  'category',
  'accounting_category',
  'cash_flow_category',
  'merchant_name',
  'status',
  'is_reconciled',
  'ai_confidence_score',
  'tags',
  'bank_account_id',
  'bank_statement_id',
  'created_at',
  'updated_at',
].sort()
const API_KEY_FIELDS = [
  'id',
  'name',
  'key_prefix',
  'scopes',
  'description',
  'last_used_at',
  'usage_count',
  'rate_limit_per_minute',
  'rate_limit_per_day',
  'is_active',
  'expires_at',
  'revoked_at',
  'created_at',
  'created_by',
  // finctl's additions for key rolling (docs/api.md section 7).
  'rolled_to',
  'rolled_from',
  'grace_ends_at',
  // An agent's key (docs/agents.md).
  'agent',
].sort()
const USAGE_FIELDS = [
  'total_requests',
  'last_used_at',
  'last_24h_requests',
  'avg_response_time_ms',
  'endpoints',
  'status_codes',
  'recent_requests',
].sort()
const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

async function expectError(p: Promise<unknown>, code: string, status: number): Promise<AppError> {
  const err = await p.then(
    () => {
      throw new Error(`expected ${code}, got success`)
    },
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  const e = err as AppError
  expect({ code: e.code, status: e.status }).toEqual({ code, status })
  expect(e.requestId).toMatch(/^req_/)
  return e
}

describe.each(MATRIX)('service interface over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    b = await h.tenant('Beta')
  })
  afterAll(async () => {
    await h?.close()
  })

  describe('4.3 create transaction', () => {
    it('answers 201 with the spec fields, defaults and the submitted values', async () => {
      const res = await h.raw('POST', '/api-v1/transactions', {
        headers: { 'x-api-key': a.key, 'content-type': 'application/json' },
        body: JSON.stringify({
          bank_account_id: a.accountId,
          transaction_date: '2026-11-20',
          description: 'Office chairs',
          amount: -349.9,
          currency_code: 'USD',
          category: 'Furniture',
          accounting_category: 'operating_expenses',
          cash_flow_category: 'operations',
          merchant_name: 'Chair Co',
          tags: ['office', 'q4'],
        }),
      })
      expect(res.status).toBe(201)
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
      const body = (await res.json()) as { success: boolean; data: Record<string, unknown> }
      expect(body.success).toBe(true)
      const t = body.data
      expect(Object.keys(t).sort()).toEqual(TRANSACTION_FIELDS)
      expect(t.id).toMatch(UUID)
      expect(t).toMatchObject({
        transaction_date: '2026-11-20',
        posted_date: '2026-11-20',
        description: 'Office chairs',
        original_description: 'Office chairs',
        amount: -349.9,
        currency_code: 'USD',
        exchange_rate: 1,
        category: 'Furniture',
        accounting_category: 'operating_expenses',
        cash_flow_category: 'operations',
        merchant_name: 'Chair Co',
        status: 'pending',
        is_reconciled: false,
        ai_confidence_score: null,
        tags: ['office', 'q4'],
        bank_account_id: a.accountId,
        bank_statement_id: null,
      })
      expect(t.created_at).toMatch(ISO_TS)
      expect(t.updated_at).toBe(t.created_at)
    })

    it('defaults currency to the account, tags to [], optional fields to null', async () => {
      const t = await h.client({ apiKey: a.key }).transactions.create({
        bank_account_id: a.accountId,
        transaction_date: '2026-11-21',
        description: 'Bank fee',
        amount: '-0.10',
      })
      expect(t).toMatchObject({ currency_code: 'USD', amount: -0.1, tags: [], category: null, merchant_name: null, exchange_rate: 1 })
    })

    it('keeps amounts exact for decimal strings and numbers', async () => {
      const c = h.client({ apiKey: a.key })
      for (const amount of ['0.01', '-0.29', '1234567890123.45', 0.3, -1.15, 99999.99]) {
        const t = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-01-01', description: 'x', amount })
        expect(t.amount).toBe(Number(amount))
      }
    })

    it('requires an exchange rate for a currency other than the base currency', async () => {
      const c = h.client({ apiKey: a.key })
      const e = await expectError(
        c.transactions.create({
          bank_account_id: a.accountId,
          transaction_date: '2026-01-01',
          description: 'x',
          amount: '10',
          currency_code: 'EUR',
        }),
        'validation_error',
        400,
      )
      expect(e.details?.map((d) => d.path)).toEqual(['exchange_rate'])
      const t = await c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: '2026-01-01',
        description: 'x',
        amount: '10',
        currency_code: 'EUR',
        exchange_rate: '1.0825',
      })
      expect(t).toMatchObject({ currency_code: 'EUR', exchange_rate: 1.0825, amount: 10 })
    })

    it('names every bad field in a 400', async () => {
      const c = h.client({ apiKey: a.key })
      const e = await expectError(
        c.request('POST', '/api-v1/transactions', { body: { amount: 'ten', transaction_date: '2026-02-30', extra: 1 } }),
        'validation_error',
        400,
      )
      const paths = e.details!.map((d) => d.path).sort()
      expect(paths).toEqual(['bank_account_id', 'description', 'extra', 'transaction_date'].sort())
      const e2 = await expectError(
        c.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-01-01', description: 'x', amount: '-1.999' }),
        'validation_error',
        400,
      )
      expect(e2.details).toEqual([{ path: 'amount', message: expect.stringContaining('2 decimal places') }])
      const e3 = await expectError(
        c.transactions.create({
          bank_account_id: a.accountId,
          transaction_date: '2026-01-01',
          description: 'x',
          amount: '1',
          currency_code: 'XXY',
        }),
        'validation_error',
        400,
      )
      expect(e3.details!.map((d) => d.path)).toEqual(['currency_code'])
    })

    it('answers malformed JSON, wrong content type and oversized bodies with clean 4xx envelopes', async () => {
      const headers = { 'x-api-key': a.key, 'content-type': 'application/json' }
      const bad = await h.raw('POST', '/api-v1/transactions', { headers, body: '{"amount": ' })
      expect(bad.status).toBe(400)
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_json')
      const text = await h.raw('POST', '/api-v1/transactions', { headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' })
      expect(text.status).toBe(415)
      expect(((await text.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type')
      const big = await h.raw('POST', '/api-v1/transactions', {
        headers,
        body: JSON.stringify({ description: 'x'.repeat(1024 * 1024 + 10) }),
      })
      expect(big.status).toBe(413)
      const bigBody = (await big.json()) as { success: boolean; error: { code: string; request_id: string } }
      expect(bigBody).toMatchObject({ success: false, error: { code: 'payload_too_large' } })
      expect(big.headers.get('x-request-id')).toBe(bigBody.error.request_id)
    })

    it('refuses an account of another company with 404', async () => {
      const e = await expectError(
        h
          .client({ apiKey: b.key })
          .transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-01-01', description: 'x', amount: '1' }),
        'not_found',
        404,
      )
      expect(e.details?.[0]?.path).toBe('bank_account_id')
      await expectError(h.client({ apiKey: b.key }).accounts.get(a.accountId), 'not_found', 404)
    })
  })

  describe('authentication (401) and permission (403)', () => {
    it('401 without credentials, with an unknown key and with bad tokens', async () => {
      await expectError(h.client().accounts.list(), 'unauthorized', 401)
      await expectError(h.client({ apiKey: `fds_${'x'.repeat(43)}` }).accounts.list(), 'unauthorized', 401)
      await expectError(h.client({ apiKey: 'not-a-key' }).accounts.list(), 'unauthorized', 401)
      const [head, payload] = a.token.split('.')
      const tampered = `${head}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), cid: b.companyId })).toString('base64url')}.${a.token.split('.')[2]}`
      await expectError(h.client({ token: tampered }).keys.list(), 'unauthorized', 401)
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`
      await expectError(h.client({ token: none }).keys.list(), 'unauthorized', 401)
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; cid: string }
      const expired = await signToken(h.store, { sub: claims.sub, cid: claims.cid, scopes: ['api_keys'] }, -10)
      await expectError(h.client({ token: expired }).keys.list(), 'unauthorized', 401)
    })

    it('accepts the JWT with and without the Bearer prefix', async () => {
      for (const authorization of [a.token, `Bearer ${a.token}`]) {
        const res = await h.raw('GET', '/api-keys', { headers: { authorization } })
        expect(res.status).toBe(200)
      }
    })

    it('401 for revoked and expired keys', async () => {
      const admin = h.client({ token: a.token })
      const k = await admin.keys.create({ name: 'soon revoked', scopes: ['read'] })
      expect((await h.client({ apiKey: k.key }).accounts.list()).status).toBe(200)
      await admin.keys.revoke(k.id)
      const e = await expectError(h.client({ apiKey: k.key }).accounts.list(), 'unauthorized', 401)
      expect(e.message).toMatch(/revoked/)

      const k2 = await admin.keys.create({
        name: 'soon expired',
        scopes: ['read'],
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      expect((await h.client({ apiKey: k2.key }).accounts.list()).status).toBe(200)
      await h.store.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', k2.id)
        .execute()
      const e2 = await expectError(h.client({ apiKey: k2.key }).accounts.list(), 'unauthorized', 401)
      expect(e2.message).toMatch(/expired/)
    })

    it('403 for a key without the scope an operation needs', async () => {
      const admin = h.client({ token: a.token })
      const readOnly = await admin.keys.create({ name: 'read only', scopes: ['read'] })
      const tx = { bank_account_id: a.accountId, transaction_date: '2026-01-01', description: 'x', amount: '1' }
      await expectError(h.client({ apiKey: readOnly.key }).transactions.create(tx), 'forbidden', 403)
      expect((await h.client({ apiKey: readOnly.key }).accounts.list()).status).toBe(200)

      const txOnly = await admin.keys.create({ name: 'transactions only', scopes: ['transactions'] })
      expect((await h.client({ apiKey: txOnly.key }).transactions.create(tx)).status).toBe('pending')
      await expectError(h.client({ apiKey: txOnly.key }).accounts.list(), 'forbidden', 403)
    })
  })

  describe('4.2 list all API keys', () => {
    it('lists every key of the company with exactly the spec fields, never the key or its hash', async () => {
      const keys = await h.client({ token: a.token }).keys.list()
      expect(keys.length).toBeGreaterThanOrEqual(1)
      for (const k of keys) {
        expect(Object.keys(k).sort()).toEqual(API_KEY_FIELDS)
        expect(k.key_prefix).toMatch(/^fds_[0-9A-Za-z]{8}$/)
        expect(k.created_at).toMatch(ISO_TS)
      }
      const mine = keys.find((k) => k.id === a.keyId)!
      expect(mine).toMatchObject({
        name: 'all',
        scopes: ['read', 'write', 'transactions'],
        is_active: true,
        revoked_at: null,
        expires_at: null,
        rate_limit_per_minute: 1_000_000,
        description: '',
      })
      const defaults = await h.client({ token: a.token }).keys.create({ name: 'defaults', scopes: ['read'] })
      expect(defaults).toMatchObject({ rate_limit_per_minute: 60, rate_limit_per_day: 10000, usage_count: 0, last_used_at: null })
      expect(a.key.startsWith(mine.key_prefix)).toBe(true)
      // only company A's keys
      const bKeys = await h.client({ token: b.token }).keys.list()
      expect(bKeys.map((k) => k.id)).not.toContain(a.keyId)
      expect(keys.map((k) => k.id)).not.toContain(b.keyId)
    })

    it('refuses API-key authentication with 403 and no credentials with 401', async () => {
      const e = await expectError(h.client({ apiKey: a.key }).keys.list(), 'forbidden', 403)
      expect(e.message).toMatch(/login|token/)
      await expectError(h.client().keys.list(), 'unauthorized', 401)
      const res = await h.raw('GET', '/api-keys')
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'unauthorized' } })
    })

    it('refuses a JWT without the api_keys scope with 403', async () => {
      const payload = JSON.parse(Buffer.from(a.token.split('.')[1], 'base64url').toString()) as { sub: string; cid: string }
      const narrow = await signToken(h.store, { sub: payload.sub, cid: payload.cid, scopes: ['read'] }, 600)
      await expectError(h.client({ token: narrow }).keys.list(), 'forbidden', 403)
    })

    it('filters by status and revokes idempotently', async () => {
      const admin = h.client({ token: a.token })
      const k = await admin.keys.create({ name: 'to revoke', scopes: ['read'], description: 'temp' })
      expect(k.key).toMatch(/^fds_[0-9A-Za-z]{43}$/)
      const first = await admin.keys.revoke(k.id)
      expect(first).toMatchObject({ id: k.id, is_active: false })
      expect(first.revoked_at).toMatch(ISO_TS)
      const again = await admin.keys.revoke(k.id)
      expect(again.revoked_at).toBe(first.revoked_at)
      expect((await admin.keys.list('revoked')).map((x) => x.id)).toContain(k.id)
      expect((await admin.keys.list('active')).map((x) => x.id)).not.toContain(k.id)
      await expectError(h.client({ token: b.token }).keys.revoke(a.keyId), 'not_found', 404)
    })
  })

  describe('4.1 usage statistics', () => {
    it('counts exactly the requests made with the key', async () => {
      const admin = h.client({ token: a.token })
      const k = await admin.keys.create({ name: 'usage', scopes: ['read', 'write', 'transactions'] })
      const c = h.client({ apiKey: k.key })
      const tx = { bank_account_id: a.accountId, transaction_date: '2026-03-01', description: 'usage', amount: '5.00' }
      for (let i = 0; i < 3; i++) await c.transactions.create(tx)
      await c.accounts.list()
      await c.accounts.list()
      await expectError(c.accounts.get(randomUUID()), 'not_found', 404)
      await expectError(c.transactions.create({ ...tx, amount: 'x' }), 'validation_error', 400)

      const before = Date.now()
      const u = await c.keys.usage()
      expect(Object.keys(u).sort()).toEqual(USAGE_FIELDS)
      expect(u.total_requests).toBe(7)
      expect(u.last_24h_requests).toBe(7)
      expect(u.endpoints).toEqual({ '/api-v1/transactions': 4, '/api-v1/bank-accounts': 2, '/api-v1/bank-accounts/{id}': 1 })
      expect(u.status_codes).toEqual({ '201': 3, '200': 2, '404': 1, '400': 1 })
      expect(Number.isInteger(u.avg_response_time_ms)).toBe(true)
      expect(u.avg_response_time_ms).toBeGreaterThanOrEqual(0)
      expect(u.recent_requests).toHaveLength(7)
      expect(u.recent_requests[0]).toMatchObject({ endpoint: '/api-v1/transactions', method: 'POST', status_code: 400 })
      expect(Object.keys(u.recent_requests[0]).sort()).toEqual(['created_at', 'endpoint', 'method', 'response_time_ms', 'status_code'])
      expect(u.recent_requests[6]).toMatchObject({ method: 'POST', status_code: 201 })
      expect(u.last_used_at).toMatch(ISO_TS)
      expect(new Date(u.last_used_at!).getTime()).toBeLessThanOrEqual(before + 1000)

      // the first usage read is itself counted by the next one; ?recent bounds the list
      const u2 = await c.keys.usage({ recent: 2 })
      expect(u2.total_requests).toBe(8)
      expect(u2.endpoints['/api-keys/me/usage']).toBe(1)
      expect(u2.recent_requests).toHaveLength(2)

      // usage_count on the key stays in step; a JWT reads the same numbers by key id
      const me = await c.keys.me()
      expect(me.usage_count).toBe(9)
      const byId = await admin.keys.usage({ keyId: k.id })
      expect(byId.total_requests).toBe(10)
      await expectError(h.client({ token: b.token }).keys.usage({ keyId: k.id }), 'not_found', 404)
    })

    it('401 without valid credentials', async () => {
      await expectError(h.client().keys.usage(), 'unauthorized', 401)
      await expectError(h.client({ apiKey: `fds_${'y'.repeat(43)}` }).keys.usage(), 'unauthorized', 401)
    })
  })

  it('GET /healthz and every answer carry X-Request-Id', async () => {
    const res = await h.raw('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ success: true, data: { status: 'ok', store: storeKind } })
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    const nf = await h.raw('GET', '/api-v1/nothing-here', { headers: { 'x-api-key': a.key } })
    expect(nf.status).toBe(404)
    expect(nf.headers.get('x-request-id')).toMatch(/^req_/)
  })
})
