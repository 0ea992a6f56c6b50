/** finctl webhooks get ID: an endpoint, where its queue stands and its latest tries. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { webhookId } from './shared.js'

export type GetOptions = Record<string, never>

export function registerGet(w: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  w.command('get')
    .argument('<id>', 'the endpoint id')
    .description('show an endpoint, where its queue stands and its latest tries')
    .addHelpText('after', '\nExample:\n  finctl webhooks get WEBHOOK_ID\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const d = await client.webhooks.get(await webhookId(client, id))
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, d)
    return EXIT.ok
  }
  const { recent_attempts, ...record } = d
  await printRecord(host.io, host.printer, { ...record, events: record.events.join(',') })
  for (const t of recent_attempts)
    note(
      host.io,
      host.printer,
      [
        `${t.created_at}  event ${t.event_id}  try ${t.resend ? 'resend' : t.attempt}: ${t.ok ? 'ok' : 'failed'}`,
        t.status_code,
        t.error,
        `(${t.duration_ms} ms)`,
      ]
        .filter((part) => part !== null && part !== undefined && part !== '')
        .join(' '),
    )
  return EXIT.ok
}
