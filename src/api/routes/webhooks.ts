/**
 * Webhook endpoints (docs/events.md, docs/api.md section "Webhooks"): create (the signing secret in
 * this answer only), list, get with the latest tries, update, delete, a test send, and one round of
 * delivery now (what `finctl webhooks deliver` runs on the embedded database). Scope `webhooks`.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { deliverDue } from '../../domain/webhooks/deliver.js'
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, testWebhook, updateWebhook } from '../../domain/webhooks/endpoints.js'
import {
  CreatedWebhookEndpoint,
  CreateWebhookRequest,
  DeliverResult,
  SendResult,
  UpdateWebhookRequest,
  WebhookDetail,
  WebhookEndpoint,
} from '../../domain/webhooks/schemas.js'
import { Deleted, envelope, IdParam } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { webhooksPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const webhooksApi = {
  list: createRoute({
    ...webhooksPaths.list,
    summary: "The company's webhook endpoints",
    security: accepts('webhooks'),
    responses: { 200: ok(envelope(z.array(WebhookEndpoint))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  create: createRoute({
    ...webhooksPaths.create,
    summary: 'Create a webhook endpoint: its signing secret is in this answer only',
    security: accepts('webhooks'),
    request: { body: jsonBody(CreateWebhookRequest) },
    responses: { 201: ok(envelope(CreatedWebhookEndpoint), 'Created'), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  deliver: createRoute({
    ...webhooksPaths.deliver,
    summary: 'Send what is due to every endpoint now, one round (the deliverer of finctl serve does it by itself)',
    security: accepts('webhooks'),
    responses: { 200: ok(envelope(DeliverResult)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...webhooksPaths.get,
    summary: 'A webhook endpoint and its latest tries',
    security: accepts('webhooks'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(WebhookDetail)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  update: createRoute({
    ...webhooksPaths.update,
    summary: 'Change an endpoint: url, events, description; status enabled starts a disabled one again',
    security: accepts('webhooks'),
    request: { params: IdParam, body: jsonBody(UpdateWebhookRequest) },
    responses: { 200: ok(envelope(WebhookEndpoint)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  delete: createRoute({
    ...webhooksPaths.delete,
    summary: 'Delete an endpoint (nothing more is sent to it)',
    security: accepts('webhooks'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Deleted)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  test: createRoute({
    ...webhooksPaths.test,
    summary: 'Send a signed webhook.test event to the endpoint now and answer what it said',
    security: accepts('webhooks'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(SendResult)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function webhookRoutes(deps: AppDeps) {
  const { store, now } = deps
  const policy = deps.webhookAddresses
  const company = (c: { get(k: 'actor'): { companyId: string } }) => c.get('actor').companyId
  return router()
    .openapi(webhooksApi.list, async (c) => c.json({ success: true as const, data: await listWebhooks(store, company(c)) }, 200))
    .openapi(webhooksApi.create, async (c) =>
      c.json({ success: true as const, data: await createWebhook(store, c.get('actor'), c.req.valid('json'), now(), policy) }, 201),
    )
    .openapi(webhooksApi.deliver, async (c) =>
      c.json({ success: true as const, data: await deliverDue(store, { clock: now, policy }) }, 200),
    )
    .openapi(webhooksApi.get, async (c) =>
      c.json({ success: true as const, data: await getWebhook(store, company(c), c.req.valid('param').id) }, 200),
    )
    .openapi(webhooksApi.update, async (c) =>
      c.json(
        {
          success: true as const,
          data: await updateWebhook(store, company(c), c.req.valid('param').id, c.req.valid('json'), now(), policy),
        },
        200,
      ),
    )
    .openapi(webhooksApi.delete, async (c) =>
      c.json({ success: true as const, data: await deleteWebhook(store, company(c), c.req.valid('param').id) }, 200),
    )
    .openapi(webhooksApi.test, async (c) =>
      c.json({ success: true as const, data: await testWebhook(store, company(c), c.req.valid('param').id, now(), policy) }, 200),
    )
}
