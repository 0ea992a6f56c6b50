/**
 * The deliverer as `finctl serve` runs it (docs/events.md, "Delivery"): a round when this process
 * writes events, when a retry falls due, when an endpoint's claim ends, and otherwise on a timer
 * that backs off while idle, from MIN_POLL_MS up to FINCTL_WEBHOOK_POLL_MS between look-ups
 * of one indexed query each: no busy polling. Events written by another process are seen within
 * that time. A round only claims endpoints for the free places of the pool and starts them: it
 * never waits for a send, so a slow endpoint delays no other's round.
 */
import { randomUUID } from 'node:crypto'
import { onEventsWritten } from '../../store/events.js'
import type { Store } from '../../store/store.js'
import { type DeliverySettings, DeliveryPool, deliverySettings, nextDue } from './deliver.js'
import { type AddressPolicy, webhookPolicy } from './url-check.js'

const MIN_POLL_MS = 250

export interface DelivererOptions {
  /** Told of an unexpected error of a round or of an endpoint's run (tried again later). */
  report?: (err: unknown) => void
  settings?: DeliverySettings
  maxPollMs?: number
  /** What endpoints may reach (`finctl serve`'s policy). */
  policy?: AddressPolicy
}

export class WebhookDeliverer {
  private readonly pool: DeliveryPool
  private readonly maxPollMs: number
  private idleMs = MIN_POLL_MS
  private timer: NodeJS.Timeout | undefined
  private dueAt = Number.POSITIVE_INFINITY
  private round: Promise<void> | undefined
  private again = false
  private stopped = false
  private unsubscribe: (() => void) | undefined

  constructor(
    private readonly store: Store,
    private readonly o: DelivererOptions = {},
  ) {
    const poll = Number(process.env.FINCTL_WEBHOOK_POLL_MS)
    this.maxPollMs = o.maxPollMs ?? (Number.isFinite(poll) && poll >= MIN_POLL_MS ? poll : 2_000)
    this.pool = new DeliveryPool(
      store,
      {
        worker: randomUUID(),
        clock: () => new Date(),
        settings: o.settings ?? deliverySettings(),
        policy: o.policy ?? webhookPolicy({ service: false }),
      },
      // A place is free, or the endpoint has more to send: claim again now.
      { done: () => this.schedule(0), error: (err) => this.stopped || this.o.report?.(err) },
    )
  }

  start(): void {
    this.unsubscribe = onEventsWritten(() => this.wake())
    this.schedule(0)
  }

  /** Events were written: a round soon, and the idle backoff starts over. */
  wake(): void {
    this.idleMs = MIN_POLL_MS
    this.schedule(20)
  }

  private schedule(ms: number): void {
    if (this.stopped) return
    const at = Date.now() + ms
    if (this.timer && at >= this.dueAt) return
    clearTimeout(this.timer)
    this.dueAt = at
    this.timer = setTimeout(() => this.tick(), ms)
    this.timer.unref()
  }

  private tick(): void {
    this.timer = undefined
    this.dueAt = Number.POSITIVE_INFINITY
    if (this.round) {
      this.again = true
      return
    }
    this.round = this.run().finally(() => {
      this.round = undefined
      if (this.again) {
        this.again = false
        this.schedule(0)
      }
    })
  }

  private async run(): Promise<void> {
    let wait = this.idleMs
    try {
      const claimed = await this.pool.fill()
      if (claimed > 0) this.idleMs = MIN_POLL_MS
      else this.idleMs = Math.min(this.idleMs * 2, this.maxPollMs)
      const due = await nextDue(this.store, new Date())
      wait = Math.min(this.idleMs, due === undefined ? Number.POSITIVE_INFINITY : Math.max(due - Date.now(), 0) + 5)
    } catch (err) {
      if (!this.stopped) this.o.report?.(err)
      wait = this.maxPollMs
    }
    this.schedule(wait)
  }

  /** Stop looking; each endpoint being sent to stops after its send under way (settled). */
  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    clearTimeout(this.timer)
    await this.round
    await this.pool.stop()
  }
}
