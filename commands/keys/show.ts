/** finctl keys show: the API key in use. */
import type { Command } from 'commander'
import { keyStatus } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type ShowOptions = Record<string, never>

export function registerShow(keys: Command, run: Runner, runF: RunVerb<ShowOptions> = runShow): void {
  keys
    .command('show')
    .description('show the API key in use')
    .addHelpText('after', '\nExample:\n  finctl keys show --json\n')
    .action(run(runF))
}

export async function runShow(host: VerbHost): Promise<number> {
  const client = await host.client()
  const key = await client.keys.me()
  if (host.printer.format === 'table') await printRecord(host.io, host.printer, { ...key, status: keyStatus(key) })
  else await printRecord(host.io, host.printer, key)
  return EXIT.ok
}
