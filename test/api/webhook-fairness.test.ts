/**
 * Deliveries are fair: one company's slow and silent endpoints cost their own queues,
 * not another company's. Company A has four endpoints answering after 30 s and one that never
 * answers, each with events waiting; company B's event, written while A's are in flight, reaches
 * B's receiver before any of A's is answered (a deliverer that made B wait for a slot of A's could
 * not). `finctl serve` on both stores, receivers on 127.0.0.1. How soon B's comes (docs/events.md's
 * 2 s): test/timing/webhook-latency.test.ts.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, STORES, type Harness } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)

interface Slow {
  url: string
  /** When each request arrived (ms since the epoch), and the event's id. */
  arrivals: Array<{ at: number; id: string }>
  /** When each request was answered. */
  answered: number[]
  close(): Promise<void>
}

/** A receiver answering 200 after `delayMs`, or never (`null`). */
async function slowReceiver(delayMs: number | null): Promise<Slow> {
  const held = new Set<ServerResponse>()
  const timers = new Set<NodeJS.Timeout>()
  const r: Slow = { url: '', arrivals: [], answered: [], close: async () => {} }
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      r.arrivals.push({ at: Date.now(), id: (JSON.parse(body) as { id: string }).id })
      if (delayMs === null) return void held.add(res)
      const t = setTimeout(() => {
        timers.delete(t)
        r.answered.push(Date.now())
        res.writeHead(200).end()
      }, delayMs)
      timers.add(t)
    })
  })
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res))
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  r.close = async () => {
    for (const t of timers) clearTimeout(t)
    for (const res of held) res.destroy()
    server.closeAllConnections()
    await new Promise<void>((res) => server.close(() => res()))
  }
  return r
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe.each(STORES)('fair deliveries by finctl serve on %s', (storeKind) => {
  let h: Harness
  const receivers: Slow[] = []

  beforeAll(async () => {
    // A's answers come at 30 s, inside the receivers' time limit.
    h = await createHarness('http', storeKind, { env: { FINCTL_WEBHOOK_ALLOW_PRIVATE: '1', FINCTL_WEBHOOK_TIMEOUT_MS: '60000' } })
  })
  afterAll(async () => {
    for (const r of receivers) await r.close()
    await h?.close()
  })

  it("company B's event arrives before any of company A's slow or silent endpoints is answered", async () => {
    const a = await h.tenant('A')
    const b = await h.tenant('B')
    const ownerA = h.client({ token: a.token })
    const ownerB = h.client({ token: b.token })
    const slow = await Promise.all([30_000, 30_000, 30_000, 30_000, null].map(slowReceiver))
    receivers.push(...slow)
    for (const r of slow) await ownerA.webhooks.create({ url: r.url, events: ['transaction.created'] })
    const fast = await slowReceiver(0)
    receivers.push(fast)
    await ownerB.webhooks.create({ url: fast.url, events: ['transaction.created'] })

    const ca = h.client({ apiKey: a.key })
    for (let i = 0; i < 3; i++)
      await ca.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: `A ${i}`, amount: '-1.00' })
    // A's endpoints have requests in flight (four at least: the deliverer before that change took four at a time).
    await waitFor(() => slow.filter((r) => r.arrivals.length >= 1).length >= 4, 60_000, "A's first deliveries")

    await h
      .client({ apiKey: b.key })
      .transactions.create({ bank_account_id: b.accountId, transaction_date: today, description: 'B', amount: '-2.00' })
    await waitFor(() => fast.arrivals.length >= 1, 60_000, "B's delivery")
    const firstAnswer = Math.min(...slow.flatMap((r) => r.answered))
    expect(fast.arrivals[0].at, "B's event came after one of A's was answered").toBeLessThan(firstAnswer)
    expect(slow[4].arrivals, 'the silent endpoint holds a request too').toHaveLength(1)
    // A's slow endpoints are still on their first or second event: they kept their own pace.
    expect(slow.slice(0, 4).every((r) => r.arrivals.length <= 2)).toBe(true)
  }, 300_000)
})
