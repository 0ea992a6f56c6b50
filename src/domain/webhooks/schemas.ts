/** Webhook endpoints as the API shows them (docs/events.md, docs/api.md section "Webhooks"). */
import { z } from '@hono/zod-openapi'
import { EVENT_TYPES } from '../events.js'
import { Timestamp, text } from '../schema-common.js'

const EventTypeOrAll = z.enum(['*', ...EVENT_TYPES])

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(EventTypeOrAll),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable(),
    /** The sequence of the last event settled: later events of its types are still to be sent. */
    cursor: z.number().int(),
    /** Tries of the event at the head of its queue that failed, and when the next one is. */
    failed_attempts: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    failing_since: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('WebhookEndpoint')
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().openapi({ description: 'the signing secret: shown this once', example: 'whsec_…' }),
}).openapi('CreatedWebhookEndpoint')
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>

const Url = z.string().max(2000).openapi({ example: 'https://erp.example.com/finctl-events' })
const Events = z
  .array(EventTypeOrAll)
  .min(1, 'give at least one event type, or *')
  .max(EVENT_TYPES.length + 1)

export const CreateWebhookRequest = z
  .object({ url: Url, events: Events, description: text(500).optional() })
  .strict()
  .openapi('CreateWebhookRequest')
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>

export const UpdateWebhookRequest = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: text(500).optional(),
    /** `enabled` starts a disabled endpoint again where it stopped (its failures forgotten). */
    status: z.enum(['enabled', 'disabled']).optional(),
  })
  .strict()
  .openapi('UpdateWebhookRequest')
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>

export const WebhookAttempt = z
  .object({
    event_id: z.string(),
    attempt: z.number().int(),
    ok: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    resend: z.boolean(),
    duration_ms: z.number().int(),
    created_at: Timestamp,
  })
  .openapi('WebhookAttempt')
export type WebhookAttempt = z.infer<typeof WebhookAttempt>

export const WebhookDetail = WebhookEndpoint.extend({ recent_attempts: z.array(WebhookAttempt) }).openapi('WebhookDetail')
export type WebhookDetail = z.infer<typeof WebhookDetail>

/** The answer of one send (a test, a resend). */
export const SendResult = z
  .object({
    endpoint_id: z.string(),
    url: z.string(),
    ok: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .openapi('WebhookSendResult')
export type SendResult = z.infer<typeof SendResult>

export const DeliverResult = z
  .object({ delivered: z.number().int(), failed: z.number().int(), skipped: z.number().int() })
  .openapi('WebhookDeliverResult')
export type DeliverResult = z.infer<typeof DeliverResult>

export const ResendRequest = z.object({ endpoint_id: z.string().optional() }).strict().openapi('ResendRequest')
