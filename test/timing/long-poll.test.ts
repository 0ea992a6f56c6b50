/**
 * A long poll answers as soon as what it waits for is written, not at the end of its wait: the
 * request log (GET /api-v1/logs) and the event stream (GET /api-v1/events), each through both
 * transports on SQLite. What they answer: test/api/request-log.test.ts and
 * test/api/event-stream.test.ts. The bound, 10 s, is half the poll's wait of 20 s (3 s in the suite before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRequestLog } from '../../src/client/request-log.js'
import { createHarness, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(['embedded', 'http'] as const)('long polls over %s, timed', (kind) => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness(kind)
    a = await h.tenant('Polls')
  })
  afterAll(async () => {
    await h?.close()
  })

  it('the request log answers within 10 s of a wait of 20 s', async () => {
    const c = h.client({ apiKey: a.key })
    const from = (await readRequestLog(c, { limit: 0 })).next_cursor
    const started = performance.now()
    const poll = readRequestLog(c, { after: from, wait: 20 })
    await new Promise((r) => setTimeout(r, 300))
    await h.client({ apiKey: a.key }).categories()
    const page = await poll
    expect(page.data.map((r) => r.path)).toEqual(['/api-v1/categories'])
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('the event stream answers within 10 s of a wait of 20 s', async () => {
    const c = h.client({ apiKey: a.key })
    const after = (await c.events.list({ after: 'latest' })).pagination.next_after ?? 0
    const started = performance.now()
    const poll = c.events.list({ after, wait: 20, type: 'bank_account.created' })
    await new Promise((r) => setTimeout(r, 300))
    const acct = await c.accounts.create({ name: 'Polled', account_type: 'savings', currency_code: 'USD' })
    const page = await poll
    expect(page.data.map((e) => [e.type, e.object_id])).toEqual([['bank_account.created', acct.id]])
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
