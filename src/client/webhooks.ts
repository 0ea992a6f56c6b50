/** The typed calls of webhook endpoints (client.ts: `client.webhooks`; docs/events.md): a login before a key, as for key administration. */
import { webhooksPaths } from '../api/paths.js'
import type { webhooksApi } from '../api/routes/webhooks.js'
import type { CreateWebhookRequest, UpdateWebhookRequest } from '../domain/webhooks/schemas.js'
import { routeCalls, type Sender } from './route-call.js'

export function webhookCalls(c: Sender) {
  const call = routeCalls<typeof webhooksApi>(c, webhooksPaths)
  return {
    list: () => call('list', { auth: 'admin' }).then((r) => r.data),
    create: (body: CreateWebhookRequest) => call('create', { body, auth: 'admin' }).then((r) => r.data),
    get: (id: string) => call('get', { params: { id }, auth: 'admin' }).then((r) => r.data),
    update: (id: string, body: UpdateWebhookRequest) => call('update', { params: { id }, body, auth: 'admin' }).then((r) => r.data),
    delete: (id: string) => call('delete', { params: { id }, auth: 'admin' }).then((r) => r.data),
    test: (id: string) => call('test', { params: { id }, auth: 'admin' }).then((r) => r.data),
    deliver: () => call('deliver', { auth: 'admin' }).then((r) => r.data),
  }
}
