/** What the verbs of `finctl webhooks` share: an endpoint's columns and how it is shown, the --events list. */
import type { Column } from '../../src/cli/output.js'
import type { WebhookEndpoint } from '../../src/domain/webhooks/schemas.js'
import { AppError } from '../../src/kernel/errors.js'

export const columns: Column<WebhookEndpoint>[] = [
  { header: 'id', value: (w) => w.id },
  { header: 'url', value: (w) => w.url },
  { header: 'events', value: (w) => w.events.join(',') },
  { header: 'status', value: (w) => w.status },
  { header: 'failed tries', value: (w) => w.failed_attempts, align: 'right' },
]

export const EVENTS_HELP = 'event types separated by commas, or * for all (docs/events.md lists them)'

/** `--events a,b`: the list, or exit 2 naming the flag. */
export function eventList(text: string): WebhookEndpoint['events'] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (list.length === 0) throw new AppError('usage', '--events needs at least one event type, or *')
  return list as WebhookEndpoint['events']
}
