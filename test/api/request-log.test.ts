/**
 * The request log (GET /api-v1/logs) through both transports on both stores: what each
 * record holds, the cursor, the filters, the long poll, and that a company sees only its own keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { readRequestLog } from '../../src/client/request-log.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('request log over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let c: Client
  let start: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Logs')
    b = await h.tenant('Other')
    c = h.client({ apiKey: a.key })
    start = (await readRequestLog(c, { limit: 0 })).next_cursor
  })
  afterAll(async () => {
    await h?.close()
  })

  /** Everything after `after`, read with a long poll until `n` records came. */
  async function readAll(after: string, n: number) {
    const got = []
    let cursor = after
    // A bound for a hang: the records come within the first long poll.
    const deadline = Date.now() + 30_000
    while (got.length < n && Date.now() < deadline) {
      const page = await readRequestLog(c, { after: cursor, wait: 2 })
      got.push(...page.data)
      cursor = page.next_cursor
    }
    return { got, cursor }
  }

  it('lists each request of the company after the cursor: method, path, status, key prefix, time, request id', async () => {
    const ok = await h.raw('GET', '/api-v1/company', { headers: { 'x-api-key': a.key } })
    const missing = await h.raw('GET', '/api-v1/transactions/tx_nope', { headers: { 'x-api-key': a.key } })
    const bad = await h.raw('POST', '/api-v1/bank-accounts', {
      headers: { 'x-api-key': a.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '' }),
    })
    expect([ok.status, missing.status, bad.status]).toEqual([200, 404, 400])
    await h.client({ apiKey: b.key }).company()
    const { got } = await readAll(start, 3)
    expect(got.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/api-v1/company', 200],
      ['GET', '/api-v1/transactions/tx_nope', 404],
      ['POST', '/api-v1/bank-accounts', 400],
    ])
    expect(got[1]).toMatchObject({ endpoint: '/api-v1/transactions/{id}', key_id: a.keyId, key_prefix: a.key.slice(0, 12) })
    expect(got.map((r) => r.request_id)).toEqual([ok, missing, bad].map((r) => r.headers.get('x-request-id')))
    for (const r of got) {
      expect(Date.now() - Date.parse(r.created_at)).toBeLessThan(60_000)
      expect(r.response_time_ms).toBeGreaterThanOrEqual(0)
    }
    // Nothing of company B, nor the log's own reads; without a cursor, the newest records.
    const newest = await readRequestLog(c, { limit: 2 })
    expect(newest.data.map((r) => r.path)).toEqual(['/api-v1/transactions/tx_nope', '/api-v1/bank-accounts'])
  })

  it('filters by status class or code, method, path prefix and key (id or prefix)', async () => {
    const other = await h.client({ token: a.token }).keys.create({ name: 'second', scopes: ['read'] })
    const c2 = h.client({ apiKey: other.key })
    const from = (await readRequestLog(c, { limit: 0 })).next_cursor
    await c2.company()
    await c.accounts.list()
    await h.raw('DELETE', '/api-v1/bank-accounts/nope', { headers: { 'x-api-key': a.key } })
    await h.raw('GET', '/api-v1/exchange-rates?currency=1', { headers: { 'x-api-key': other.key } })
    await readAll(from, 4)
    // Everything is written now (read above): a plain read after `from` sees all that matches.
    const paths = async (q: Record<string, string>) =>
      (await readRequestLog(c, { ...q, after: from })).data.map((r) => `${r.method} ${r.path} ${r.status}`)
    expect(await paths({ status: '4xx' })).toEqual(['DELETE /api-v1/bank-accounts/nope 404', 'GET /api-v1/exchange-rates 400'])
    expect(await paths({ status: '404' })).toEqual(['DELETE /api-v1/bank-accounts/nope 404'])
    expect(await paths({ status: '2xx' })).toEqual(['GET /api-v1/company 200', 'GET /api-v1/bank-accounts 200'])
    expect(await paths({ method: 'delete' })).toEqual(['DELETE /api-v1/bank-accounts/nope 404'])
    expect(await paths({ path: '/api-v1/bank-accounts' })).toEqual([
      'GET /api-v1/bank-accounts 200',
      'DELETE /api-v1/bank-accounts/nope 404',
    ])
    expect(await paths({ key: other.key_prefix })).toEqual(['GET /api-v1/company 200', 'GET /api-v1/exchange-rates 400'])
    expect(await paths({ key: a.keyId, status: '2xx' })).toEqual(['GET /api-v1/bank-accounts 200'])
  })

  it('passes over filtered-out records: the cursor moves past them', async () => {
    const from = (await readRequestLog(c, { limit: 0 })).next_cursor
    await c.company()
    const { got, cursor } = await readAll(from, 1)
    expect(got).toHaveLength(1)
    const page = await readRequestLog(c, { after: from, status: '5xx' })
    expect(page.data).toEqual([])
    // Past the company read; and past the log's own reads, whose records are written before they
    // are answered on a server (the log leaves them out).
    expect(Number(page.next_cursor)).toBeGreaterThanOrEqual(Number(cursor))
    expect((await readRequestLog(c, { after: page.next_cursor })).data).toEqual([])
  })

  it('a long poll answers as soon as a request is recorded, not at the end of its wait', async () => {
    // How soon it answers: test/timing/long-poll.test.ts.
    const from = (await readRequestLog(c, { limit: 0 })).next_cursor
    const poll = readRequestLog(c, { after: from, wait: 20 })
    await new Promise((r) => setTimeout(r, 300))
    await h.client({ apiKey: a.key }).categories()
    const page = await poll
    expect(page.data.map((r) => r.path)).toEqual(['/api-v1/categories'])
    // Nothing new: it waits, then answers with the same cursor.
    const t0 = Date.now()
    const empty = await readRequestLog(c, { after: page.next_cursor, wait: 0.5 })
    expect(empty.data).toEqual([])
    // (The cursor may move: past the record of the long poll itself, which the log leaves out.)
    expect(Number(empty.next_cursor)).toBeGreaterThanOrEqual(Number(page.next_cursor))
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450)
  })

  it('refuses a bad filter, naming it (400)', async () => {
    for (const [q, field] of [
      [{ status: '6xx' }, 'status'],
      [{ method: 'GE T' }, 'method'],
      [{ path: 'api-v1' }, 'path'],
      [{ after: 'abc' }, 'after'],
      [{ wait: 31 }, 'wait'],
    ] as const) {
      const e = await readRequestLog(c, q).then(
        () => undefined,
        (err: unknown) => err as AppError,
      )
      expect(e, JSON.stringify(q)).toBeInstanceOf(AppError)
      expect(e!.status).toBe(400)
      expect(e!.details?.map((d) => d.path)).toEqual([field])
    }
  })
})
