/** finctl events resend ID [--endpoint ID]: an event sent again now; exit 14 when an endpoint does not answer 2xx. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { SendResult } from '../../src/domain/webhooks/schemas.js'
import { webhookId } from '../webhooks/shared.js'

export interface ResendOptions {
  endpoint?: string
}

const sendColumns: Column<SendResult>[] = [
  { header: 'endpoint', value: (r) => r.endpoint_id },
  { header: 'url', value: (r) => r.url },
  { header: 'ok', value: (r) => (r.ok ? 'yes' : 'no') },
  { header: 'status', value: (r) => r.status_code ?? '' },
  { header: 'error', value: (r) => r.error ?? '' },
  { header: 'ms', value: (r) => r.duration_ms, align: 'right' },
]

export function registerResend(events: Command, run: Runner, runF: RunVerb<ResendOptions> = runResend): void {
  events
    .command('resend')
    .argument('<id>', 'the event id')
    .description('send an event again now to the enabled webhook endpoints of its type; exit 14 when one does not answer 2xx')
    .option('--endpoint <id>', 'only to this endpoint (enabled or not)')
    .addHelpText('after', '\nExample:\n  finctl events resend EVENT_ID --endpoint WEBHOOK_ID\n')
    .action(run(runF))
}

export async function runResend(host: VerbHost, o: ResendOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const results = await client.events.resend(id, o.endpoint === undefined ? undefined : await webhookId(client, o.endpoint, '--endpoint'))
  await printList(host.io, host.printer, results, sendColumns)
  const failed = results.filter((r) => !r.ok)
  for (const f of failed) note(host.io, host.printer, `${f.url} did not take event ${id}: ${f.error}`)
  return failed.length ? EXIT.webhookFailed : EXIT.ok
}
