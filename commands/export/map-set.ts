/** finctl export map set FILE: store the company's accounts map (its chart of accounts for datev, sie4, saft-no). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { note, printJson } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'

export type MapSetOptions = Record<string, never>

export function registerMapSet(map: Command, run: Runner, runF: RunVerb<MapSetOptions> = runMapSet): void {
  map
    .command('set')
    .description("store the company's accounts map (JSON or YAML, as --accounts-map): the exports take it when no --accounts-map is given")
    .argument('<file>', 'the accounts map (docs/exporting.md, "A chart of accounts")')
    .addHelpText('after', '\nExamples:\n  finctl export map suggest --chart skr03 -o chart.yaml\n  finctl export map set chart.yaml\n')
    .action(run(runF))
}

export async function runMapSet(host: VerbHost, _o: MapSetOptions, [file]: string[]): Promise<number> {
  await requireInputFile(file)
  const { readFile } = await import('node:fs/promises')
  const { parseAccountsMap } = await import('../../src/domain/exports/formats/accounts-map.js')
  const map = await parseAccountsMap(await readFile(file, 'utf8'), file, 'the accounts map')
  const client = await host.client()
  const stored = await client.exportMap.set(map)
  if (host.printer.format === 'json') await printJson(host.io, host.printer, stored)
  note(host.io, host.printer, `stored the accounts map of ${printableLine(file)} (SHA-256 ${stored.sha256})`)
  return EXIT.ok
}
