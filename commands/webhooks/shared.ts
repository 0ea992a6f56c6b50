/** What the verbs of `finctl webhooks` share: an endpoint's columns and how it is shown, the --events list. */
import { idColumn } from '../../src/cli/columns.js'
import type { Column } from '../../src/cli/output.js'
import { resolveListedId } from '../../src/cli/short-ids.js'
import type { Client } from '../../src/client/client.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/schemas.js'
import { AppError } from '../../src/kernel/errors.js'

export const columns: Column<WebhookEndpoint>[] = [
  idColumn((w) => w.id),
  { header: 'url', value: (w) => w.url },
  { header: 'events', value: (w) => w.events.join(',') },
  { header: 'status', value: (w) => w.status },
  { header: 'failed tries', value: (w) => w.failed_attempts, align: 'right' },
]

export const EVENTS_HELP = 'event types separated by commas, or * for all (docs/events.md lists them)'

/** The full id of the endpoint ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
export function webhookId(client: Client, id: string, flag = 'ID'): Promise<string> {
  return resolveListedId(
    'webhook endpoint',
    id,
    () => client.webhooks.list(),
    (w) => `${w.id}  ${w.url}  ${w.status}`,
    flag,
  )
}

/** `--events a,b`: the list, or exit 2 naming the flag. */
export function eventList(text: string): WebhookEndpoint['events'] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (list.length === 0) throw new AppError('usage', '--events needs at least one event type, or *')
  return list as WebhookEndpoint['events']
}
