/** finctl webhooks create --url URL --events TYPES [--description TEXT]: an endpoint; its signing secret shown once. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord, warn } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { EVENTS_HELP, eventList } from './shared.js'

export interface CreateOptions {
  url: string
  events: string
  description?: string
}

export function registerCreate(w: Command, run: Runner, runF: RunVerb<CreateOptions> = runCreate): void {
  w.command('create')
    .description('create an endpoint; its signing secret is shown once')
    .requiredOption('--url <url>', 'where to POST events (http or https)')
    .requiredOption('--events <types>', EVENTS_HELP)
    .option('--description <text>', 'what it is for')
    .addHelpText(
      'after',
      '\nExample:\n  finctl webhooks create --url https://erp.example.com/finctl --events transaction.created,transactions.imported\n',
    )
    .action(run(runF))
}

export async function runCreate(host: VerbHost, o: CreateOptions): Promise<number> {
  const client = await host.client()
  const created = await client.webhooks.create({ url: o.url, events: eventList(o.events), description: o.description })
  const { secret, ...record } = created
  if (host.printer.format === 'table') {
    await printRecord(host.io, host.printer, { ...record, events: record.events.join(',') })
    host.io.stdout.write(`${secret}\n`)
  } else await printRecord(host.io, host.printer, created)
  warn(host.io, 'this is the only time the signing secret is shown: store it with your receiver now', host.printer.color)
  return EXIT.ok
}
