/** finctl export map show: the company's stored accounts map, as YAML (or --json). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printJson } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableText } from '../../src/cli/terminal-text.js'

export type MapShowOptions = Record<string, never>

export function registerMapShow(map: Command, run: Runner, runF: RunVerb<MapShowOptions> = runMapShow): void {
  map
    .command('show')
    .description("the company's stored accounts map, as YAML (--json: with its SHA-256 and who set it when)")
    .addHelpText('after', '\nExamples:\n  finctl export map show > chart.yaml\n  finctl export map show --json\n')
    .action(run(runF))
}

export async function runMapShow(host: VerbHost): Promise<number> {
  const client = await host.client()
  const stored = await client.exportMap.get()
  if (host.printer.format === 'json') {
    await printJson(host.io, host.printer, stored)
    return EXIT.ok
  }
  if (stored.map === null) {
    note(host.io, host.printer, 'no accounts map is stored: finctl export map suggest --chart CHART writes one to start from')
    return EXIT.ok
  }
  const yaml = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') }
  const text = (yaml.stringify ?? yaml.default!.stringify)(stored.map)
  host.io.stdout.write(host.io.isStdoutTTY ? printableText(text) : text)
  return EXIT.ok
}
