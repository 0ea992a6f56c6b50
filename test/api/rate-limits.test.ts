/** Per-key rate limits: 429 with Retry-After once a window is spent, exact under concurrency. */
import { readFileSync, existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, inOneMinute, MATRIX, TRANSPORTS, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('rate limits over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  it('accepts rate_limit_per_minute requests, then answers 429 with Retry-After and does nothing', async () => {
    const { k, description, answers } = await inOneMinute(async () => {
      const k = await h.client({ token: a.token }).keys.create({ name: 'limited', scopes: ['read', 'write'], rate_limit_per_minute: 3 })
      const description = `limited ${k.id}`
      const headers = { 'x-api-key': k.key, 'content-type': 'application/json' }
      const body = JSON.stringify({ bank_account_id: a.accountId, transaction_date: '2026-05-05', description, amount: '1.00' })
      const answers = []
      for (let i = 0; i < 4; i++) {
        const res = await h.raw('POST', '/api-v1/transactions', { headers, body })
        answers.push({ status: res.status, headers: res.headers, body: await res.json() })
      }
      return { k, description, answers }
    })
    const refused = answers.pop()!
    for (const res of answers) {
      expect(res.status).toBe(201)
      expect(res.headers.get('ratelimit-limit')).toBe('3')
      const reset = Number(res.headers.get('ratelimit-reset'))
      expect(reset).toBeGreaterThan(0)
      expect(reset).toBeLessThanOrEqual(60)
    }
    expect(answers.map((res) => res.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0'])
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.body).toMatchObject({ success: false, error: { code: 'rate_limited' } })
    // nothing was done: exactly three transactions with that description
    const rows = await h.store.db.selectFrom('transactions').select('id').where('description', '=', description).execute()
    expect(rows).toHaveLength(3)
    // the 429 is counted in usage; the key is still limited for this minute (usage read refused too)
    const usage = await h.client({ token: a.token }).keys.usage({ keyId: k.id })
    expect(usage.total_requests).toBe(4)
    expect(usage.status_codes).toEqual({ '201': 3, '429': 1 })
  })

  it('the daily window limits too, with Retry-After until the end of the UTC day', async () => {
    // In one minute, so also in one UTC day.
    const { res, body, secondsToMidnight } = await inOneMinute(async () => {
      const k = await h
        .client({ token: a.token })
        .keys.create({ name: 'daily', scopes: ['read'], rate_limit_per_minute: 100, rate_limit_per_day: 2 })
      const c = h.client({ apiKey: k.key })
      await c.accounts.list()
      await c.accounts.list()
      const res = await h.raw('GET', '/api-v1/bank-accounts', { headers: { 'x-api-key': k.key } })
      return { res, body: await res.json(), secondsToMidnight: (86_400_000 - (Date.now() % 86_400_000)) / 1000 }
    })
    expect(res.status).toBe(429)
    expect(Math.abs(Number(res.headers.get('retry-after')) - secondsToMidnight)).toBeLessThan(5)
    expect(body as object).toMatchObject({ error: { message: expect.stringMatching(/per day/) } })
  })

  it('holds exactly under concurrency: N of many parallel requests succeed', async () => {
    const limit = 10
    const { k, results } = await inOneMinute(async () => {
      const k = await h.client({ token: a.token }).keys.create({ name: 'burst', scopes: ['read'], rate_limit_per_minute: limit })
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          h.raw('GET', '/api-v1/bank-accounts', { headers: { 'x-api-key': k.key } }).then(async (r) => {
            await r.arrayBuffer()
            return r.status
          }),
        ),
      )
      return { k, results }
    })
    expect(results.filter((s) => s === 200)).toHaveLength(limit)
    expect(results.filter((s) => s === 429)).toHaveLength(40 - limit)
    const usage = await h.client({ token: a.token }).keys.usage({ keyId: k.id })
    expect(usage.total_requests).toBe(40)
  })

  it('the client retries a 429 after Retry-After, a bounded number of times', async () => {
    const { Client } = await import('../../src/client/client.js')
    const { second, waits } = await inOneMinute(async () => {
      const k = await h.client({ token: a.token }).keys.create({ name: 'retry', scopes: ['read'], rate_limit_per_minute: 1 })
      const waits: number[] = []
      const c = new Client({ baseUrl: h.baseUrl, fetch: h.fetch, apiKey: k.key, maxRetries: 2, sleep: async (ms) => void waits.push(ms) })
      await c.accounts.list()
      return { second: await c.accounts.list().catch((err: unknown) => err), waits }
    })
    expect(second).toMatchObject({ code: 'rate_limited', status: 429 })
    expect(waits).toHaveLength(2)
    for (const w of waits) expect(w).toBeGreaterThan(0)
  })
})

describe.each(TRANSPORTS)('secrets at rest over %s', (kind) => {
  it('the database never holds a full API key, only its hash', async () => {
    const h = await createHarness(kind)
    try {
      const a = await h.tenant()
      const keys = [a.key]
      for (let i = 0; i < 3; i++) keys.push((await h.client({ token: a.token }).keys.create({ name: `k${i}`, scopes: ['read'] })).key)
      for (const key of keys) await h.client({ apiKey: key }).accounts.list()
      await h.client({ apiKey: a.key }).keys.usage() // flushes usage records
      const files = [h.database, `${h.database}-wal`].filter(existsSync)
      expect(files.length).toBeGreaterThan(0)
      const bytes = Buffer.concat(files.map((f) => readFileSync(f)))
      for (const key of keys) {
        expect(bytes.includes(Buffer.from(key))).toBe(false)
        // the part after the prefix is never stored either
        expect(bytes.includes(Buffer.from(key.slice(12)))).toBe(false)
      }
      // the password is not stored in clear either
      expect(bytes.includes(Buffer.from(a.password))).toBe(false)
    } finally {
      await h.close()
    }
  })
})
