/**
 * How soon a delivery comes while another company's endpoints are slow: company A has four endpoints
 * answering after 5 s and one that never answers, each with events waiting; company B's event,
 * written while A's are in flight, reaches B's receiver within 4 s (docs/events.md promises 2 s on a
 * quiet machine). `finctl serve` on SQLite. That B's comes before any of A's is answered, on both
 * stores: test/api/webhook-fairness.test.ts.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)

interface Slow {
  url: string
  /** When each request arrived (ms since the epoch), and the event's id. */
  arrivals: Array<{ at: number; id: string }>
  close(): Promise<void>
}

/** A receiver answering 200 after `delayMs`, or never (`null`). */
async function slowReceiver(delayMs: number | null): Promise<Slow> {
  const held = new Set<ServerResponse>()
  const timers = new Set<NodeJS.Timeout>()
  const r: Slow = { url: '', arrivals: [], close: async () => {} }
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      r.arrivals.push({ at: Date.now(), id: (JSON.parse(body) as { id: string }).id })
      if (delayMs === null) return void held.add(res)
      const t = setTimeout(() => {
        timers.delete(t)
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

describe('fair deliveries by finctl serve, timed', () => {
  let h: Harness
  const receivers: Slow[] = []

  beforeAll(async () => {
    h = await createHarness('http', 'sqlite', { env: { FINCTL_WEBHOOK_ALLOW_PRIVATE: '1' } })
  })
  afterAll(async () => {
    for (const r of receivers) await r.close()
    await h?.close()
  })

  it("company B's event arrives within 4 s while company A's endpoints are slow or silent", async () => {
    const a = await h.tenant('A')
    const b = await h.tenant('B')
    const ownerA = h.client({ token: a.token })
    const ownerB = h.client({ token: b.token })
    const slow = await Promise.all([5000, 5000, 5000, 5000, null].map(slowReceiver))
    receivers.push(...slow)
    for (const r of slow) await ownerA.webhooks.create({ url: r.url, events: ['transaction.created'] })
    const fast = await slowReceiver(0)
    receivers.push(fast)
    await ownerB.webhooks.create({ url: fast.url, events: ['transaction.created'] })

    const ca = h.client({ apiKey: a.key })
    for (let i = 0; i < 3; i++)
      await ca.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: `A ${i}`, amount: '-1.00' })
    // A's endpoints have requests in flight (four at least: the deliverer before that change took four at a time).
    await waitFor(() => slow.filter((r) => r.arrivals.length >= 1).length >= 4, 10_000, "A's first deliveries")

    const written = Date.now()
    await h
      .client({ apiKey: b.key })
      .transactions.create({ bank_account_id: b.accountId, transaction_date: today, description: 'B', amount: '-2.00' })
    await waitFor(() => fast.arrivals.length >= 1, 30_000, "B's delivery")
    const latency = fast.arrivals[0].at - written
    expect(latency, `B's event arrived ${latency} ms after it was written`).toBeLessThan(4000)
    expect(slow[4].arrivals, 'the silent endpoint holds a request too').toHaveLength(1)
    // A's slow endpoints are still on their first or second event: they kept their own pace.
    expect(slow.slice(0, 4).every((r) => r.arrivals.length <= 2)).toBe(true)
  }, 60_000)
})
