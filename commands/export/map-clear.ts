/** finctl export map clear: remove the company's stored accounts map. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printJson } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export type MapClearOptions = Record<string, never>

export function registerMapClear(map: Command, run: Runner, runF: RunVerb<MapClearOptions> = runMapClear): void {
  map
    .command('clear')
    .description("remove the company's stored accounts map: datev, sie4 and saft-no then need --accounts-map")
    .addHelpText('after', '\nExamples:\n  finctl export map clear\n  finctl export map clear --json\n')
    .action(run(runF))
}

export async function runMapClear(host: VerbHost): Promise<number> {
  const client = await host.client()
  const r = await client.exportMap.clear()
  if (host.printer.format === 'json') await printJson(host.io, host.printer, r)
  note(host.io, host.printer, r.deleted ? 'removed the accounts map' : 'no accounts map was stored')
  return EXIT.ok
}
