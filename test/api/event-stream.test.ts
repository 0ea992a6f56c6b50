/**
 * What `finctl listen` reads through both transports on both stores: GET
 * /api-v1/events with `after=latest` (where the outbox ends now) and `wait` (a long poll).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('event stream over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Stream')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const create = (description: string) =>
    c.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-11-02', description, amount: -5 })

  it('after=latest answers no event and the sequence where the outbox ends now', async () => {
    await create('Before')
    let last = 0
    for (let after = 0; ; ) {
      const page = await c.events.list({ after, limit: 1000 })
      last = page.data.at(-1)?.sequence ?? last
      if (!page.pagination.has_more) break
      after = page.pagination.next_after ?? after
    }
    expect(last).toBeGreaterThan(0)
    const latest = await c.events.list({ after: 'latest' })
    expect(latest.data).toEqual([])
    expect(latest.pagination.next_after).toBe(last)
  })

  it('a long poll answers as soon as an event of its types is committed', async () => {
    // How soon it answers: test/timing/long-poll.test.ts.
    const after = (await c.events.list({ after: 'latest' })).pagination.next_after ?? 0
    const poll = c.events.list({ after, wait: 20, type: 'bank_account.created' })
    await new Promise((r) => setTimeout(r, 300))
    await create('Not waited for')
    const acct = await c.accounts.create({ name: 'Stream savings', account_type: 'savings', currency_code: 'USD' })
    const page = await poll
    expect(page.data.map((e) => [e.type, e.object_id])).toEqual([['bank_account.created', acct.id]])
    // Nothing more of that type: it waits out the wait and answers with the same cursor.
    const t0 = Date.now()
    const empty = await c.events.list({ after: page.pagination.next_after ?? 0, wait: 0.5, type: 'bank_account.created' })
    expect(empty.data).toEqual([])
    expect(empty.pagination.next_after).toBe(page.pagination.next_after)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450)
  })

  it('refuses a wait over 30 s or a bad after, naming it (400)', async () => {
    for (const [q, field] of [
      [{ after: 0, wait: 31 }, 'wait'],
      [{ after: 'newest' as unknown as number }, 'after'],
    ] as const) {
      const e = await c.events.list(q).then(
        () => undefined,
        (err: unknown) => err as AppError,
      )
      expect(e).toBeInstanceOf(AppError)
      expect(e!.status).toBe(400)
      expect(e!.details?.map((d) => d.path)).toEqual([field])
    }
  })
})
