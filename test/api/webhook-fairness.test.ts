/**
 * Deliveries are fair: one company's slow and silent endpoints cost their own queues,
 * not another company's. Company A has four endpoints answering after 30 s and one that never
 * answers, each with events waiting; company B's event, written while A's are in flight, reaches
 * B's receiver before any of A's is answered (a deliverer that made B wait for a slot of A's could
 * not). `finctl serve` on both stores, receivers on 127.0.0.1. How soon B's comes (docs/events.md's
 * 2 s): test/timing/webhook-latency.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, STORES, type Harness } from '../helpers/harness.js'
import { busyNeighbour, type Slow, waitFor } from '../helpers/slow-receivers.js'

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
    const { slow, fast, writeB } = await busyNeighbour(h, 30_000, receivers, 60_000)

    await writeB()
    await waitFor(() => fast.arrivals.length >= 1, 60_000, "B's delivery")
    const firstAnswer = Math.min(...slow.flatMap((r) => r.answered))
    expect(fast.arrivals[0].at, "B's event came after one of A's was answered").toBeLessThan(firstAnswer)
    expect(slow[4].arrivals, 'the silent endpoint holds a request too').toHaveLength(1)
    // A's slow endpoints are still on their first or second event: they kept their own pace.
    expect(slow.slice(0, 4).every((r) => r.arrivals.length <= 2)).toBe(true)
  }, 300_000)
})
