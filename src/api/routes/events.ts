/**
 * Events (docs/events.md, docs/api.md section "Events"): the company's outbox, oldest first after a
 * cursor (scope `read`), one event, and sending one again to the webhook endpoints subscribed to its
 * type (scope `write`).
 */
import { createRoute, z } from '@hono/zod-openapi'
import { resendEvent } from '../../domain/webhooks/endpoints.js'
import { ResendRequest, SendResult } from '../../domain/webhooks/schemas.js'
import { Event, EventListQuery, EventPage, getEvent, listEvents } from '../../domain/events.js'
import { envelope, IdParam } from '../../domain/schemas.js'
import { latestEventSequence } from '../../domain/event-stream.js'
import { longPoll } from '../../domain/long-poll.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { requestWaker } from '../waker.js'
import { eventsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const eventsApi = {
  list: createRoute({
    ...eventsPaths.list,
    summary: "The company's events in the order they were committed, after a sequence (`after`), of some types (`type=a,b`)",
    security: accepts('read'),
    request: { query: EventListQuery },
    responses: { 200: ok(EventPage), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...eventsPaths.get,
    summary: 'One event',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Event)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  resend: createRoute({
    ...eventsPaths.resend,
    summary: 'Send an event again now to the enabled endpoints of its type (or to endpoint_id); the answers of each',
    security: accepts('webhooks'),
    request: {
      params: IdParam,
      body: { content: { 'application/json': { schema: ResendRequest } }, required: false },
    },
    responses: { 200: ok(envelope(z.array(SendResult))), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404], 409: ERRORS[409] },
  }),
}

export function eventRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(eventsApi.list, async (c) => {
      const q = c.req.valid('query')
      const limit = q.limit ?? 100
      const companyId = c.get('actor').companyId
      const after = q.after === 'latest' ? await latestEventSequence(store, companyId) : q.after
      const read = () => listEvents(store, companyId, { after, types: q.type, limit })
      // `wait`: a long poll (domain/long-poll.ts), for `finctl listen`.
      const page = await longPoll(after === undefined ? 0 : (q.wait ?? 0), requestWaker(deps, c), read, (p) => p.events.length > 0)
      return c.json(
        { success: true as const, data: page.events, pagination: { limit, next_after: page.nextAfter, has_more: page.hasMore } },
        200,
      )
    })
    .openapi(eventsApi.get, async (c) =>
      c.json({ success: true as const, data: await getEvent(store, c.get('actor').companyId, c.req.valid('param').id) }, 200),
    )
    .openapi(eventsApi.resend, async (c) => {
      const body = (c.req.header('content-type') ?? '').includes('json') ? c.req.valid('json') : {}
      const data = await resendEvent(
        store,
        c.get('actor').companyId,
        c.req.valid('param').id,
        now(),
        body?.endpoint_id,
        deps.webhookAddresses,
      )
      return c.json({ success: true as const, data }, 200)
    })
}
