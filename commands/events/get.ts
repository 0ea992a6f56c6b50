/** finctl events get ID: one event with its payload. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type GetOptions = Record<string, never>

export function registerGet(events: Command, run: Runner, runF: RunVerb<GetOptions> = runGet): void {
  events
    .command('get')
    .argument('<id>', 'the event id')
    .description('show one event with its payload')
    .addHelpText('after', '\nExample:\n  finctl events get 0193a0c4-7f2e-7c1a-9b1e-3f5d2a6c8e01 --json\n')
    .action(run(runF))
}

export async function runGet(host: VerbHost, _o: GetOptions, [id]: string[]): Promise<number> {
  const e = await (await host.client()).events.get(id)
  await printRecord(host.io, host.printer, e)
  return EXIT.ok
}
