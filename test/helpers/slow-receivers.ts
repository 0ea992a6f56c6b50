/**
 * Webhook receivers that answer late or never, and the scene of the fairness tests
 * (test/api/webhook-fairness.test.ts, test/timing/webhook-latency.test.ts): company A's four slow
 * endpoints and one silent one with deliveries in flight, company B's one quick endpoint.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Harness, Tenant } from './harness.js'

const today = new Date().toISOString().slice(0, 10)

export interface Slow {
  url: string
  /** When each request arrived (ms since the epoch), and the event's id. */
  arrivals: Array<{ at: number; id: string }>
  /** When each request was answered. */
  answered: number[]
  close(): Promise<void>
}

/** A receiver answering 200 after `delayMs`, or never (`null`). */
export async function slowReceiver(delayMs: number | null): Promise<Slow> {
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

/** Until `check` holds; a hang bound of `ms`, never a measure. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/**
 * Company A with four endpoints answering after `slowMs` and a silent one, three events each in
 * flight (four requests at least); company B with one endpoint answering at once. Receivers go to
 * `receivers`, for the file's afterAll to close.
 */
export async function busyNeighbour(
  h: Harness,
  slowMs: number,
  receivers: Slow[],
  waitMs: number,
): Promise<{ a: Tenant; b: Tenant; slow: Slow[]; fast: Slow; writeB(): Promise<unknown> }> {
  const a = await h.tenant('A')
  const b = await h.tenant('B')
  const slow = await Promise.all([slowMs, slowMs, slowMs, slowMs, null].map(slowReceiver))
  receivers.push(...slow)
  for (const r of slow) await h.client({ token: a.token }).webhooks.create({ url: r.url, events: ['transaction.created'] })
  const fast = await slowReceiver(0)
  receivers.push(fast)
  await h.client({ token: b.token }).webhooks.create({ url: fast.url, events: ['transaction.created'] })
  const ca = h.client({ apiKey: a.key })
  for (let i = 0; i < 3; i++)
    await ca.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: `A ${i}`, amount: '-1.00' })
  // Four at least: the deliverer before fair queues took four at a time.
  await waitFor(() => slow.filter((r) => r.arrivals.length >= 1).length >= 4, waitMs, "A's first deliveries")
  const writeB = () =>
    h
      .client({ apiKey: b.key })
      .transactions.create({ bank_account_id: b.accountId, transaction_date: today, description: 'B', amount: '-2.00' })
  return { a, b, slow, fast, writeB }
}
