/**
 * How soon a delivery comes while another company's endpoints are slow: company A has four endpoints
 * answering after 5 s and one that never answers, each with events waiting; company B's event,
 * written while A's are in flight, reaches B's receiver within 4 s (docs/events.md promises 2 s on a
 * quiet machine). `finctl serve` on SQLite. That B's comes before any of A's is answered, on both
 * stores: test/api/webhook-fairness.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../helpers/harness.js'
import { busyNeighbour, type Slow, waitFor } from '../helpers/slow-receivers.js'

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
    const { slow, fast, writeB } = await busyNeighbour(h, 5000, receivers, 10_000)

    const written = Date.now()
    await writeB()
    await waitFor(() => fast.arrivals.length >= 1, 30_000, "B's delivery")
    const latency = fast.arrivals[0].at - written
    expect(latency, `B's event arrived ${latency} ms after it was written`).toBeLessThan(4000)
    expect(slow[4].arrivals, 'the silent endpoint holds a request too').toHaveLength(1)
    // A's slow endpoints are still on their first or second event: they kept their own pace.
    expect(slow.slice(0, 4).every((r) => r.arrivals.length <= 2)).toBe(true)
  }, 60_000)
})
