/**
 * Webhook endpoints: create (the signing secret shown once), list, get (with its latest tries),
 * update, delete, test; and sending an event again (docs/events.md). The secret is kept as it is,
 * beside the JWT secret: the deliverer needs it to sign (docs/security.md).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { AppError, notFound } from '../../kernel/errors.js'
import type { NewWebhookAttemptRow, WebhookEndpointRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { getEvent } from '../events.js'
import type {
  CreateWebhookRequest,
  CreatedWebhookEndpoint,
  SendResult,
  UpdateWebhookRequest,
  WebhookAttempt,
  WebhookDetail,
  WebhookEndpoint,
} from './schemas.js'
import { sendEvent, type Sent } from './send.js'
import { type AddressPolicy, checkWebhookUrl, webhookPolicy } from './url-check.js'
import { thisWorker } from '../../kernel/process.js'

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.event_types) as WebhookEndpoint['events'],
    status: row.status,
    disabled_reason: row.disabled_reason,
    cursor: Number(row.cursor),
    failed_attempts: row.attempts,
    next_attempt_at: row.attempts > 0 ? row.next_attempt_at : null,
    failing_since: row.failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** Whether an endpoint subscribed to `events` takes an event of `type`. */
export function subscribed(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type)
}

function uniqueTypes(events: readonly string[]): string {
  return JSON.stringify(events.includes('*') ? ['*'] : [...new Set(events)])
}

/** The company's latest event sequence: a new endpoint gets the events after it. */
async function lastSequence(store: Store, companyId: string): Promise<number> {
  const r = await store.db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('m'))
    .where('company_id', '=', companyId)
    .executeTakeFirst()
  return Number(r?.m ?? 0)
}

/** `policy`: the addresses an endpoint may reach (default: the embedded core's; `finctl serve` gives its own). */
export async function createWebhook(
  store: Store,
  actor: Actor,
  input: CreateWebhookRequest,
  now: Date,
  policy: AddressPolicy = webhookPolicy({ service: false }),
): Promise<CreatedWebhookEndpoint> {
  await checkWebhookUrl(input.url, policy)
  const secret = `whsec_${randomBytes(24).toString('base64url')}`
  const ts = now.toISOString()
  const row: WebhookEndpointRow = {
    id: randomUUID(),
    company_id: actor.companyId,
    url: input.url,
    description: input.description ?? '',
    event_types: uniqueTypes(input.events),
    secret,
    status: 'enabled',
    disabled_reason: null,
    cursor: await lastSequence(store, actor.companyId),
    attempts: 0,
    next_attempt_at: ts,
    failing_since: null,
    lease_until: null,
    leased_by: null,
    created_by: actorId(actor),
    created_at: ts,
    updated_at: ts,
  }
  await store.db.insertInto('webhook_endpoints').values(row).execute()
  return { ...toWebhookEndpoint(row), secret }
}

export async function listWebhooks(store: Store, companyId: string): Promise<WebhookEndpoint[]> {
  const rows = await store.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(toWebhookEndpoint)
}

async function findWebhook(store: Store, companyId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await store.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('webhook endpoint')
  return row
}

export async function getWebhook(store: Store, companyId: string, id: string): Promise<WebhookDetail> {
  const row = await findWebhook(store, companyId, id)
  const tries = await store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('endpoint_id', '=', id)
    .orderBy('id', 'desc')
    .limit(20)
    .execute()
  const recent: WebhookAttempt[] = tries.map((t) => ({
    event_id: t.event_id,
    attempt: t.attempt,
    ok: t.ok === 1,
    status_code: t.status_code,
    error: t.error,
    resend: t.resend === 1,
    duration_ms: t.duration_ms,
    created_at: t.created_at,
  }))
  return { ...toWebhookEndpoint(row), recent_attempts: recent }
}

export async function updateWebhook(
  store: Store,
  companyId: string,
  id: string,
  patch: UpdateWebhookRequest,
  now: Date,
  policy: AddressPolicy = webhookPolicy({ service: false }),
): Promise<WebhookEndpoint> {
  await findWebhook(store, companyId, id)
  if (patch.url !== undefined) await checkWebhookUrl(patch.url, policy)
  const ts = now.toISOString()
  const set: Partial<WebhookEndpointRow> = { updated_at: ts }
  if (patch.url !== undefined) set.url = patch.url
  if (patch.description !== undefined) set.description = patch.description
  if (patch.events !== undefined) set.event_types = uniqueTypes(patch.events)
  if (patch.status === 'disabled') Object.assign(set, { status: 'disabled', disabled_reason: 'disabled by hand' })
  // Enabled again: the head event is tried at once, its failures forgotten.
  if (patch.status === 'enabled')
    Object.assign(set, { status: 'enabled', disabled_reason: null, attempts: 0, failing_since: null, next_attempt_at: ts })
  await store.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).where('company_id', '=', companyId).execute()
  return toWebhookEndpoint(await findWebhook(store, companyId, id))
}

export async function deleteWebhook(store: Store, companyId: string, id: string): Promise<{ id: string; deleted: true }> {
  await findWebhook(store, companyId, id)
  await store.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute()
  return { id, deleted: true }
}

/** Record one try of an event at an endpoint. */
/** One try of one event, as webhook_attempts keeps it. */
export function attemptRow(
  endpointId: string,
  eventId: string,
  attempt: number,
  sent: Sent,
  resend: boolean,
  now: Date,
): NewWebhookAttemptRow {
  return {
    endpoint_id: endpointId,
    event_id: eventId,
    attempt,
    ok: sent.ok ? 1 : 0,
    status_code: sent.status_code,
    error: sent.error,
    resend: resend ? 1 : 0,
    worker: thisWorker(),
    duration_ms: sent.duration_ms,
    created_at: now.toISOString(),
  }
}

export async function recordAttempt(
  store: Store,
  endpointId: string,
  eventId: string,
  attempt: number,
  sent: Sent,
  resend: boolean,
  now: Date,
): Promise<void> {
  await store.db
    .insertInto('webhook_attempts')
    .values(attemptRow(endpointId, eventId, attempt, sent, resend, now))
    .execute()
}

/** Send a `webhook.test` event (not stored in the outbox) to an endpoint now: how a receiver is tried. */
export async function testWebhook(
  store: Store,
  companyId: string,
  id: string,
  now: Date,
  policy: AddressPolicy = webhookPolicy({ service: false }),
): Promise<SendResult> {
  const row = await findWebhook(store, companyId, id)
  const event = {
    id: `test_${randomUUID()}`,
    type: 'webhook.test',
    company_id: companyId,
    created_at: now.toISOString(),
    sequence: 0,
    object_id: row.id,
    actor: 'system:test',
    data: { webhook_endpoint_id: row.id, url: row.url },
  }
  const sent = await sendEvent(row.url, row.secret, event, now, undefined, policy)
  return { endpoint_id: row.id, url: row.url, ...sent }
}

/**
 * Send an event again now, to one endpoint or to every enabled one subscribed to its type; the
 * endpoints' queues do not move (it is sent besides them, at least once more).
 */
export async function resendEvent(
  store: Store,
  companyId: string,
  eventId: string,
  now: Date,
  endpointId?: string,
  policy: AddressPolicy = webhookPolicy({ service: false }),
): Promise<SendResult[]> {
  const event = await getEvent(store, companyId, eventId)
  let q = store.db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId)
  q = endpointId ? q.where('id', '=', endpointId) : q.where('status', '=', 'enabled')
  const rows = (await q.orderBy('created_at').execute()).filter((r) => endpointId || subscribed(JSON.parse(r.event_types), event.type))
  if (endpointId && rows.length === 0) throw notFound('webhook endpoint')
  if (rows.length === 0) throw new AppError('conflict', `no enabled webhook endpoint takes ${event.type} events: nothing to send`)
  const out: SendResult[] = []
  for (const r of rows) {
    const sent = await sendEvent(r.url, r.secret, event, now, undefined, policy)
    await recordAttempt(store, r.id, event.id, 0, sent, true, now)
    out.push({ endpoint_id: r.id, url: r.url, ...sent })
  }
  return out
}
