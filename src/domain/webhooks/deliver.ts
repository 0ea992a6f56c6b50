/**
 * The deliverer (docs/events.md, "Delivery"): each enabled endpoint reads the outbox in order from
 * its cursor and sends the events of its types one at a time, so a receiver gets them in the order
 * they were committed (and so in order per object). At least once: an endpoint is claimed with a
 * lease, and the cursor moves only after a 2xx; a process killed mid-send leaves the lease to run
 * out, and the next process sends that event again. On PostgreSQL the claim is
 * `FOR UPDATE SKIP LOCKED`, so several `finctl serve` processes share the endpoints without sending
 * one delivery twice. A failed send is tried again after an exponential backoff with jitter; an
 * endpoint failing for FINCTL_WEBHOOK_DISABLE_AFTER_HOURS (default 72) is disabled with the reason.
 */
import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
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
}

export function deliverySettings(): DeliverySettings {
  const timeout = sendTimeoutMs()
  return {
    backoffMs: num('FINCTL_WEBHOOK_BACKOFF_MS', 30_000),
    maxBackoffMs: num('FINCTL_WEBHOOK_BACKOFF_MAX_MS', 60 * 60_000),
    disableAfterMs: num('FINCTL_WEBHOOK_DISABLE_AFTER_HOURS', 72) * 3_600_000,
    leaseMs: Math.max(num('FINCTL_WEBHOOK_LEASE_MS', 60_000), 2 * timeout),
    perClaim: 100,
  }
}

/** The wait before try number `failures + 1`: base × 2^(failures-1), capped, times a jitter of 0.75-1.25. */
export function backoffMs(s: DeliverySettings, failures: number, random = Math.random): number {
  const exp = Math.min(s.maxBackoffMs, s.backoffMs * 2 ** Math.min(failures - 1, 30))
  return Math.round(exp * (0.75 + random() / 2))
}

const iso = (ms: number) => new Date(ms).toISOString()

/** Endpoints due now, free, with events after their cursor (`db`: the store, or a transaction). */
function dueEndpoints(db: Kysely<Db>, ts: string, max: number) {
  return db
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
}

/**
 * Endpoints due now with events after their cursor, claimed for `worker` until the lease ends. A
 * read first: an idle look takes no write lock (SQLite's is the whole file's).
 */
async function claim(store: Store, worker: string, now: Date, s: DeliverySettings, max: number): Promise<WebhookEndpointRow[]> {
  const ts = now.toISOString()
  const until = iso(now.getTime() + s.leaseMs)
  if ((await dueEndpoints(store.db, ts, 1).execute()).length === 0) return []
  return store.writeTransaction(async (trx) => {
    let q = dueEndpoints(trx, ts, max)
    if (store.dialect === 'postgres') q = q.forUpdate().skipLocked()
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

/** Send what is due of one claimed endpoint, in order, until a failure, the claim's share, or the end of its queue. */
async function deliverEndpoint(
  store: Store,
  w: WebhookEndpointRow,
  worker: string,
  clock: () => Date,
  s: DeliverySettings,
  out: DeliverResult,
  policy: AddressPolicy,
): Promise<void> {
  const types = JSON.parse(w.event_types) as string[]
  let cursor = Number(w.cursor)
  let sent = 0
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
  while (sent < s.perClaim) {
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
      if (sent >= s.perClaim) break
    }
  }
  if (done.length && !(await flush())) return
  await settle(store, w.id, worker, { cursor, lease_until: null, leased_by: null })
}

/** One round: claim what is due and send it (a one-shot `webhooks deliver`, or a turn of the loop). */
export async function deliverDue(
  store: Store,
  o: { clock?: () => Date; worker?: string; settings?: DeliverySettings; policy?: AddressPolicy } = {},
): Promise<DeliverResult> {
  const policy = o.policy ?? webhookPolicy({ service: false })
  const clock = o.clock ?? (() => new Date())
  const worker = o.worker ?? randomUUID()
  const s = o.settings ?? deliverySettings()
  const out: DeliverResult = { delivered: 0, failed: 0, skipped: 0 }
  for (;;) {
    const claimed = await claim(store, worker, clock(), s, 4)
    if (claimed.length === 0) return out
    await Promise.all(claimed.map((w) => deliverEndpoint(store, w, worker, clock, s, out, policy)))
  }
}

/** When the next retry of an enabled endpoint is due (none: undefined). */
export async function nextDue(store: Store, now: Date): Promise<number | undefined> {
  const r = await store.db
    .selectFrom('webhook_endpoints')
    .select(sql<string | null>`min(next_attempt_at)`.as('at'))
    .where('status', '=', 'enabled')
    .where('next_attempt_at', '>', now.toISOString())
    .executeTakeFirst()
  return r?.at ? Date.parse(r.at) : undefined
}
