/** finctl recurring accept ID | delete ID. */
import type { Command } from 'commander'
import type { Client } from '../../src/client/client.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveListedId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'

/** An item's id, or the short id a table showed (its last characters). */
async function itemId(client: Client, text: string): Promise<string> {
  return resolveListedId(
    'recurring item',
    text,
    () => client.recurring.list({ status: 'all' }),
    (i) => `${i.id} ${printableLine(i.name)}`,
  )
}

export function registerAccept(recurring: Command, run: Runner, runF: RunVerb<object> = runAccept): void {
  recurring
    .command('accept')
    .description('accept a suggestion: the forecast counts it (accepting it again changes nothing)')
    .argument('<id>', 'the id detect printed')
    .addHelpText('after', '\nExample:\n  finctl recurring accept 3f2a9c1e\n')
    .action(run(runF))
}

export async function runAccept(host: VerbHost, _o: object, args: string[]): Promise<number> {
  const client = await host.client()
  const item = await client.recurring.accept(await itemId(client, args[0]))
  await printRecord(host.io, host.printer, item)
  note(host.io, host.printer, `accepted: ${printableLine(item.name)}, next expected ${item.next_expected}`)
  return EXIT.ok
}

export function registerDelete(recurring: Command, run: Runner, runF: RunVerb<object> = runDelete): void {
  recurring
    .command('delete')
    .description('delete a recurring item or a suggestion')
    .argument('<id>', 'its id')
    .addHelpText('after', '\nExample:\n  finctl recurring delete 3f2a9c1e\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost, _o: object, args: string[]): Promise<number> {
  const client = await host.client()
  const r = await client.recurring.delete(await itemId(client, args[0]))
  if (host.printer.format !== 'table') await printRecord(host.io, host.printer, r)
  else note(host.io, host.printer, `deleted ${r.id}`)
  return EXIT.ok
}
