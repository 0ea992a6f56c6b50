/**
 * Events (docs/events.md): the outbox a company's systems downstream read, by `finctl events`, by
 * webhooks and by `finctl listen`. Each change writes its event in its own database transaction
 * (`recordEvents` inside `store.writeTransaction`, or `InsertOptions.event` on the insert hot
 * path), so a change never commits without its event nor an event without its change.
 */
import { z } from '@hono/zod-openapi'
import type { Kysely } from 'kysely'
import { uuidv7 } from '../kernel/ids.js'
import { packUuids, UuidPacker, unpackUuids } from '../kernel/packed-ids.js'
import { notFound } from '../kernel/errors.js'
import type { Db, EventRow, NewEventRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import { actorId, type Actor } from './actor.js'
import { Timestamp } from './schema-common.js'

/** Every event type, in the order docs/events.md lists them. */
export const EVENT_TYPES = [
  'transaction.created',
  'transaction.updated',
  'transaction.deleted',
  'transaction.noted',
  'transactions.imported',
  'statement.uploaded',
  'statement.processed',
  'statement.failed',
  'import.pending',
  'import.applied',
  'import.reverted',
  'document.added',
  'document.linked',
  'document.unlinked',
  'bank_account.created',
  'bank_account.updated',
  'bank_account.deleted',
  'api_key.created',
  'api_key.revoked',
  'rate.imported',
  'period.closed',
  'period.reopened',
  'user.invited',
  'user.invitation_revoked',
  'user.joined',
  'user.role_changed',
  'user.disabled',
  'approval.requested',
  'approval.decided',
  'budget.set',
  'budget.deleted',
  'budget.version_current',
  'recurring.accepted',
  'recurring.deleted',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

export const Event = z
  .object({
    id: z.string(),
    type: z.enum(EVENT_TYPES),
    company_id: z.string(),
    created_at: Timestamp,
    /** The company's order of events: `after` pages by it. */
    sequence: z.number().int(),
    object_id: z.string().nullable(),
    actor: z.string().openapi({ example: 'key:0193…' }),
    data: z.record(z.string(), z.unknown()).openapi({ description: 'the object as the API returns it, or ids and counts for a batch' }),
  })
  .openapi('Event')
export type Event = z.infer<typeof Event>

/** `type=a,b` (a comma-separated list, each a known type). */
const TypeList = z
  .string()
  .max(1000)
  .transform((s, ctx) => {
    const types = s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
    const bad = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t))
    if (bad.length) ctx.addIssue({ code: 'custom', message: `unknown event type ${bad.join(', ')} (docs/events.md lists them)` })
    return types as EventType[]
  })

export const EventListQuery = z
  .object({
    type: TypeList.optional().openapi({ type: 'string', example: 'transaction.created,transactions.imported' }),
    after: z
      .union([z.literal('latest'), z.coerce.number().int().min(0)])
      .optional()
      .openapi({
        type: 'string',
        description: 'the sequence of the last event seen (exclusive), or `latest`: only events committed from now on (`finctl listen`)',
      }),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    wait: z.coerce
      .number()
      .min(0)
      .max(30)
      .optional()
      .openapi({ description: 'seconds to wait for an event after `after` when there is none yet (long poll), 0..30' }),
  })
  .strict()
export type EventListQuery = z.infer<typeof EventListQuery>

export const EventPage = z
  .object({
    success: z.literal(true),
    data: z.array(Event),
    pagination: z.object({
      limit: z.number().int(),
      /** The `after` of the next page: the last event's sequence (or the `after` given when none). */
      next_after: z.number().int().nullable(),
      has_more: z.boolean(),
    }),
  })
  .openapi('EventPage')

/** An event row to write, made now for `actor` (or a system actor such as `system:housekeeping`). */
export function eventRow(
  actor: Actor | string,
  type: EventType,
  objectId: string | null,
  data: object,
  now: Date,
  companyId?: string,
): NewEventRow {
  const { transaction_ids: ids, ...rest } = data as { transaction_ids?: unknown }
  let packed: Buffer | undefined
  let body: object = data
  // A packer (a long list gathered as it was read) gives its bytes, or its ids when not all are UUIDs.
  if (ids instanceof UuidPacker) {
    packed = ids.bytes()
    body = packed ? rest : { ...rest, transaction_ids: ids.ids() }
  } else if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) {
    packed = packUuids(ids)
    if (packed) body = rest
  }
  return {
    id: uuidv7(now.getTime()),
    company_id: companyId ?? (typeof actor === 'string' ? '' : actor.companyId),
    type,
    object_id: objectId,
    actor: typeof actor === 'string' ? actor : actorId(actor),
    created_at: now.toISOString(),
    data: JSON.stringify(body),
    packed_ids: packed ?? null,
  }
}

/** Write events inside the change's database transaction `trx`; call it last in the transaction (docs/events.md). */
export function recordEvents(store: Store, trx: Kysely<Db>, rows: readonly NewEventRow[]): Promise<void> {
  return store.writes.insertEvents(trx, rows)
}

export function toEvent(row: EventRow): Event {
  return {
    id: row.id,
    type: row.type as EventType,
    company_id: row.company_id,
    created_at: row.created_at,
    sequence: Number(row.seq),
    object_id: row.object_id,
    actor: row.actor,
    data: row.packed_ids
      ? { ...(JSON.parse(row.data) as Record<string, unknown>), transaction_ids: unpackUuids(row.packed_ids) }
      : (JSON.parse(row.data) as Record<string, unknown>),
  }
}

/**
 * An event's JSON as JSON.stringify(toEvent(row)) writes it, with the stored data text put in as it
 * is: a delivery of an import's event (thousands of ids) is not parsed only to be written again.
 */
export function eventJson(row: EventRow): string {
  const head = JSON.stringify({
    id: row.id,
    type: row.type,
    company_id: row.company_id,
    created_at: row.created_at,
    sequence: Number(row.seq),
    object_id: row.object_id,
    actor: row.actor,
  })
  return `${head.slice(0, -1)},"data":${dataJson(row)}}`
}

/** The stored data text with packed ids put back last, as `toEvent` gives them. */
function dataJson(row: EventRow): string {
  if (!row.packed_ids) return row.data
  const ids = `"transaction_ids":${JSON.stringify(unpackUuids(row.packed_ids))}}`
  return row.data === '{}' ? `{${ids}` : `${row.data.slice(0, -1)},${ids}`
}

export interface EventFilter {
  /** Only events after this sequence (exclusive): the last one a reader has seen. */
  after?: number
  /** Only these types (all when empty or absent). */
  types?: readonly string[]
  /** At most this many (default 100, at most 1000). */
  limit?: number
}

/**
 * A company's events in the order they were committed, oldest first, after a cursor: the reader
 * of `finctl events list`, webhooks' deliverer and `finctl listen`. Keep the last event's
 * `sequence` and pass it as `after` to read on; `has_more` says another page is there already.
 */
export async function listEvents(
  store: Store,
  companyId: string,
  f: EventFilter = {},
): Promise<{ events: Event[]; hasMore: boolean; nextAfter: number | null }> {
  const limit = Math.min(Math.max(f.limit ?? 100, 1), 1000)
  let q = store.db.selectFrom('events').selectAll().where('company_id', '=', companyId)
  if (f.after !== undefined) q = q.where('seq', '>', f.after)
  if (f.types?.length) q = q.where('type', 'in', [...f.types])
  const rows = await q
    .orderBy('seq')
    .limit(limit + 1)
    .execute()
  const events = rows.slice(0, limit).map(toEvent)
  return { events, hasMore: rows.length > limit, nextAfter: events.length ? events[events.length - 1].sequence : (f.after ?? null) }
}

/** One event of the company, by id. */
export async function getEvent(store: Store, companyId: string, id: string): Promise<Event> {
  const row = await store.db.selectFrom('events').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('event')
  return toEvent(row)
}
