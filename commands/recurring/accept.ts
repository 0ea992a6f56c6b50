/** finctl recurring accept ID | delete ID. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { recurringItemId } from '../../src/cli/id-kinds.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'

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
  const item = await client.recurring.accept(await recurringItemId(client, args[0]))
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
  const r = await client.recurring.delete(await recurringItemId(client, args[0]))
  if (host.printer.format !== 'table') await printRecord(host.io, host.printer, r)
  else note(host.io, host.printer, `deleted recurring item ${r.id}`)
  return EXIT.ok
}
