/** finctl webhooks update ID [--url U] [--events T] [--description D] [--enable | --disable] */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { UpdateWebhookRequest } from '../../src/domain/webhooks/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { EVENTS_HELP, eventList, webhookId } from './shared.js'

export interface UpdateOptions {
  url?: string
  events?: string
  description?: string
  enable?: boolean
  disable?: boolean
}

export function registerUpdate(w: Command, run: Runner, runF: RunVerb<UpdateOptions> = runUpdate): void {
  w.command('update')
    .argument('<id>', 'the endpoint id')
    .description('change an endpoint; --enable starts a disabled one again where it stopped')
    .option('--url <url>', 'a new URL')
    .option('--events <types>', EVENTS_HELP)
    .option('--description <text>', 'a new description')
    .option('--enable', 'enable it (its failures forgotten: the event it stopped at is tried at once)')
    .option('--disable', 'disable it (nothing is sent until enabled)')
    .addHelpText('after', '\nExample:\n  finctl webhooks update WEBHOOK_ID --events "*" --enable\n')
    .action(run(runF))
}

export async function runUpdate(host: VerbHost, o: UpdateOptions, [id]: string[]): Promise<number> {
  if (o.enable && o.disable) throw new AppError('usage', 'give --enable or --disable, not both')
  const body: UpdateWebhookRequest = {
    ...(o.url !== undefined ? { url: o.url } : {}),
    ...(o.events !== undefined ? { events: eventList(o.events) } : {}),
    ...(o.description !== undefined ? { description: o.description } : {}),
    ...(o.enable ? { status: 'enabled' as const } : o.disable ? { status: 'disabled' as const } : {}),
  }
  if (Object.keys(body).length === 0)
    throw new AppError('usage', 'nothing to change: give --url, --events, --description, --enable or --disable')
  const client = await host.client()
  const w = await client.webhooks.update(await webhookId(client, id), body)
  await printRecord(host.io, host.printer, host.printer.format === 'table' ? { ...w, events: w.events.join(',') } : w)
  return EXIT.ok
}
