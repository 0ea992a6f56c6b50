/**
 * The deliverer (docs/events.md, "Delivery"): each enabled endpoint reads the outbox in order from
 * its cursor and sends the events of its types one at a time, so a receiver gets them in the order
 * they were committed (and so in order per object). At least once: an endpoint is claimed with a
 * lease, and the cursor moves only after a 2xx; a process killed mid-send leaves the lease to run
 * out, and the next process sends that event again. On PostgreSQL the claim is
 * `FOR UPDATE SKIP LOCKED`, so several `finctl serve` processes share the endpoints without sending
 * one delivery twice. A failed send is tried again after an exponential backoff with jitter; an
 * endpoint failing for FINCTL_WEBHOOK_DISABLE_AFTER_HOURS (default 72) is disabled with the reason.
 * Endpoints are worked independently (`DeliveryPool`): a slow or silent one holds its own place only.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { minOf } from '../../store/fragments.js'
import type { Db, NewWebhookAttemptRow, WebhookEndpointRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { eventJson } from '../events.js'
import { attemptRow, recordAttempt, subscribed } from './endpoints.js'
import type { DeliverResult } from './schemas.js'
import { sendEvent, sendTimeoutMs } from './send.js'
import { type AddressPolicy, webhookPolicy } from './url-check.js'

const num = (name: string, fallback: number): number => {
  const n = Number(process.env[name])
  return process.env[name] !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback
}

/** The settings of retries, read when a deliverer starts (environment variables: docs/events.md). */
export interface DeliverySettings {
  /** The first retry's wait; each next one doubles, up to maxBackoffMs (FINCTL_WEBHOOK_BACKOFF_MS, default 30 s). */
  backoffMs: number
  maxBackoffMs: number
  /** Failing this long, an endpoint is disabled (at least 24 hours of retries by default: 72). */
  disableAfterMs: number
  /** A claim's lease: another process takes over an endpoint whose lease ran out. */
  leaseMs: number
  /** Events sent to one endpoint before its claim is given back (others get their turn). */
  perClaim: number
  /** How long one claim may run before it is given back (its endpoint may be claimed again at once). */
  claimMs: number
  /** Endpoints this process sends to at once, one event in flight each (FINCTL_WEBHOOK_CONCURRENCY). */
  concurrency: number
}

export function deliverySettings(): DeliverySettings {
  const timeout = sendTimeoutMs()
  return {
    backoffMs: num('FINCTL_WEBHOOK_BACKOFF_MS', 30_000),
    maxBackoffMs: num('FINCTL_WEBHOOK_BACKOFF_MAX_MS', 60 * 60_000),
    disableAfterMs: num('FINCTL_WEBHOOK_DISABLE_AFTER_HOURS', 72) * 3_600_000,
    leaseMs: Math.max(num('FINCTL_WEBHOOK_LEASE_MS', 60_000), 2 * timeout),
    perClaim: 100,
    claimMs: 30_000,
    concurrency: Math.max(1, Math.floor(num('FINCTL_WEBHOOK_CONCURRENCY', 64))),
  }
}

/** The wait before try number `failures + 1`: base × 2^(failures-1), capped, times a jitter of 0.75-1.25. */
export function backoffMs(s: DeliverySettings, failures: number, random = Math.random): number {
  const exp = Math.min(s.maxBackoffMs, s.backoffMs * 2 ** Math.min(failures - 1, 30))
  return Math.round(exp * (0.75 + random() / 2))
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * Endpoints due now, free, with events after their cursor, not among `busy` (`db`: the store, or a
 * transaction). The one that has waited longest comes first: a claim given back moves next_attempt_at to now.
 */
function dueEndpoints(db: Kysely<Db>, ts: string, max: number, busy: readonly string[]) {
  let q = db
    .selectFrom('webhook_endpoints as w')
    .select('w.id')
    .where('w.status', '=', 'enabled')
    .where('w.next_attempt_at', '<=', ts)
    .where((eb) => eb.or([eb('w.lease_until', 'is', null), eb('w.lease_until', '<', ts)]))
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('events as e').select('e.seq').whereRef('e.company_id', '=', 'w.company_id').whereRef('e.seq', '>', 'w.cursor')),
    )
    .orderBy('w.next_attempt_at')
    .limit(max)
  if (busy.length) q = q.where('w.id', 'not in', busy)
  return q
}

/**
 * Endpoints due now with events after their cursor, claimed for `worker` until the lease ends. A
 * read first: an idle look takes no write lock (SQLite's is the whole file's).
 */
async function claim(
  store: Store,
  worker: string,
  now: Date,
  s: DeliverySettings,
  max: number,
  busy: readonly string[],
): Promise<WebhookEndpointRow[]> {
  const ts = now.toISOString()
  const until = iso(now.getTime() + s.leaseMs)
  if ((await dueEndpoints(store.db, ts, 1, busy).execute()).length === 0) return []
  return store.writeTransaction(async (trx) => {
    let q = dueEndpoints(trx, ts, max, busy)
    if (store.sql.rowLocks) q = q.forUpdate().skipLocked()
    const ids = (await q.execute()).map((r) => r.id)
    if (ids.length === 0) return []
    await trx.updateTable('webhook_endpoints').set({ lease_until: until, leased_by: worker }).where('id', 'in', ids).execute()
    return trx.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute()
  })
}

/** Move an endpoint on, only while this worker holds it; whether it still did. */
async function settle(store: Store, id: string, worker: string, set: Partial<WebhookEndpointRow>): Promise<boolean> {
  const r = await store.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).where('leased_by', '=', worker).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/**
 * What a run of successes leaves to write: their attempts, and the cursor past them, written together
 * every FLUSH_EVERY successes or FLUSH_MS (one write transaction, not two an event: on SQLite a
 * deliverer's writes take the file's write lock from an import running beside it). A process killed
 * before a flush sends those events again: at least once, as before.
 */
const FLUSH_EVERY = 25
const FLUSH_MS = 1000

interface EndpointRun {
  store: Store
  worker: string
  clock: () => Date
  settings: DeliverySettings
  out: DeliverResult
  policy: AddressPolicy
  /** Stop after the send under way (the process is stopping). */
  stopping: () => boolean
}

/**
 * Send what is due of one claimed endpoint, in order, one event at a time, until a failure, the
 * claim's share (perClaim events or claimMs), a stop, or the end of its queue.
 */
async function deliverEndpoint(w: WebhookEndpointRow, run: EndpointRun): Promise<void> {
  const { store, worker, clock, settings: s, out, policy } = run
  const types = JSON.parse(w.event_types) as string[]
  const claimedAt = clock().getTime()
  let cursor = Number(w.cursor)
  let sent = 0
  const turnOver = () => sent >= s.perClaim || clock().getTime() - claimedAt >= s.claimMs || run.stopping()
  let failures = w.attempts
  const done: NewWebhookAttemptRow[] = []
  let flushedAt = clock().getTime()
  /** Write the successes so far and move the cursor past them; whether this worker still holds the endpoint. */
  const flush = async (): Promise<boolean> => {
    flushedAt = clock().getTime()
    const rows = done.splice(0)
    return store.writeTransaction(async (trx) => {
      if (rows.length) await trx.insertInto('webhook_attempts').values(rows).execute()
      const r = await trx
        .updateTable('webhook_endpoints')
        .set({ cursor, attempts: 0, failing_since: null, lease_until: iso(clock().getTime() + s.leaseMs) })
        .where('id', '=', w.id)
        .where('leased_by', '=', worker)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    })
  }
  while (!turnOver()) {
    const rows = await store.db
      .selectFrom('events')
      .selectAll()
      .where('company_id', '=', w.company_id)
      .where('seq', '>', cursor)
      .orderBy('seq')
      .limit(s.perClaim)
      .execute()
    if (rows.length === 0) break
    for (const row of rows) {
      if (!subscribed(types, row.type)) {
        cursor = Number(row.seq)
        out.skipped++
        continue
      }
      const now = clock()
      const event = { id: row.id, type: row.type }
      const result = await sendEvent(w.url, w.secret, event, now, eventJson(row), policy)
      if (!result.ok) {
        // The successes before it first, so that the cursor the retry starts from is theirs.
        if (done.length && !(await flush())) return
        await recordAttempt(store, w.id, event.id, failures + 1, result, false, now)
        out.failed++
        failures++
        const since = w.failing_since ?? now.toISOString()
        const disable = now.getTime() - Date.parse(since) >= s.disableAfterMs
        await settle(store, w.id, worker, {
          cursor,
          attempts: failures,
          failing_since: since,
          next_attempt_at: iso(now.getTime() + backoffMs(s, failures)),
          lease_until: null,
          leased_by: null,
          updated_at: now.toISOString(),
          ...(disable
            ? {
                status: 'disabled' as const,
                disabled_reason: `failing since ${since}: ${failures} tries of event ${event.id} failed, the last with ${result.error}`,
              }
            : {}),
        })
        return
      }
      done.push(attemptRow(w.id, event.id, failures + 1, result, false, now))
      out.delivered++
      sent++
      cursor = Number(row.seq)
      failures = 0
      w.failing_since = null
      // Taken over (this process was too slow and its lease ran out): the other process goes on.
      if ((done.length >= FLUSH_EVERY || clock().getTime() - flushedAt >= FLUSH_MS) && !(await flush())) return
      if (turnOver()) break
    }
  }
  if (done.length && !(await flush())) return
  // Given back with next_attempt_at now: among endpoints waiting for a place, it goes last.
  await settle(store, w.id, worker, { cursor, lease_until: null, leased_by: null, next_attempt_at: clock().toISOString() })
}

/**
 * The endpoints one worker is sending to, each on its own: `fill` claims due endpoints for the free
 * places and starts each without waiting for any other, so a slow or silent endpoint holds only its
 * place (at most one send timeout a try) and its own queue, never another endpoint's.
 */
export class DeliveryPool {
  readonly out: DeliverResult = { delivered: 0, failed: 0, skipped: 0 }
  /** Errors of endpoints' runs (their lease runs out, and they are claimed again then). */
  readonly errors: unknown[] = []
  private readonly busy = new Map<string, Promise<void>>()
  private readonly run: EndpointRun
  private stopped = false

  constructor(
    store: Store,
    o: { worker: string; clock: () => Date; settings: DeliverySettings; policy: AddressPolicy },
    /** Told when an endpoint's run ends (a place is free: claim again) or fails. */
    private readonly events: { done?: () => void; error?: (err: unknown) => void } = {},
  ) {
    this.run = { store, ...o, out: this.out, stopping: () => this.stopped }
  }

  get size(): number {
    return this.busy.size
  }

  /** Claim what is due for the free places and start sending to each; how many were claimed. */
  async fill(): Promise<number> {
    const free = this.run.settings.concurrency - this.busy.size
    if (free <= 0 || this.stopped) return 0
    const { store, worker, clock, settings } = this.run
    const claimed = await claim(store, worker, clock(), settings, free, [...this.busy.keys()])
    for (const w of claimed) {
      const p = deliverEndpoint(w, this.run)
        .catch((err: unknown) => {
          this.errors.push(err)
          this.events.error?.(err)
        })
        .finally(() => {
          this.busy.delete(w.id)
          this.events.done?.()
        })
      this.busy.set(w.id, p)
    }
    return claimed.length
  }

  /** Until one endpoint's run ends (at once when none runs). */
  async next(): Promise<void> {
    if (this.busy.size) await Promise.race(this.busy.values())
  }

  /** Claim no more; each run stops after its send under way. */
  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.busy.values())
  }
}

/** Send what is due until nothing is (a one-shot `webhooks deliver`): endpoints in parallel, each in order. */
export async function deliverDue(
  store: Store,
  o: { clock?: () => Date; worker?: string; settings?: DeliverySettings; policy?: AddressPolicy } = {},
): Promise<DeliverResult> {
  const pool = new DeliveryPool(store, {
    clock: o.clock ?? (() => new Date()),
    worker: o.worker ?? randomUUID(),
    settings: o.settings ?? deliverySettings(),
    policy: o.policy ?? webhookPolicy({ service: false }),
  })
  for (;;) {
    const claimed = await pool.fill()
    if (claimed === 0 && pool.size === 0) break
    await pool.next()
  }
  if (pool.errors.length) throw pool.errors[0]
  return pool.out
}

/** When the next retry of an enabled endpoint is due (none: undefined). */
export async function nextDue(store: Store, now: Date): Promise<number | undefined> {
  const r = await store.db
    .selectFrom('webhook_endpoints')
    .select(minOf('next_attempt_at').as('at'))
    .where('status', '=', 'enabled')
    .where('next_attempt_at', '>', now.toISOString())
    .executeTakeFirst()
  return r?.at ? Date.parse(r.at) : undefined
}
