/** The typed calls of the company's events (client.ts: `client.events`; docs/events.md): a page after a sequence, one event. */
import { eventsPaths } from '../api/paths.js'
import type { eventsApi } from '../api/routes/events.js'
import type { Event } from '../domain/events.js'
import { routeCalls, type Sender } from './route-call.js'

/** A page of events: `next_after` is the `after` of the next page. */
export interface EventPageData {
  data: Event[]
  pagination: { limit: number; next_after: number | null; has_more: boolean }
}

export function eventCalls(c: Sender) {
  const call = routeCalls<typeof eventsApi>(c, eventsPaths)
  return {
    /** `after: 'latest'` starts where the outbox ends now; `wait` seconds makes it a long poll (`finctl listen`). */
    list: async (
      query: { type?: string; after?: number | 'latest'; limit?: number; wait?: number } = {},
      signal?: AbortSignal,
    ): Promise<EventPageData> => {
      const r = await call('list', { query, signal })
      return { data: r.data as Event[], pagination: r.pagination as unknown as EventPageData['pagination'] }
    },
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    resend: (id: string, endpointId?: string) =>
      call('resend', { params: { id }, body: endpointId ? { endpoint_id: endpointId } : {}, auth: 'admin' }).then((r) => r.data),
  }
}
