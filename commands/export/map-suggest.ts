/** finctl export map suggest --chart skr03|skr04|bas|no-standard [-o FILE]: a starting chart from the accounting categories. */
import { Option, type Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine, printableText } from '../../src/cli/terminal-text.js'
import { CHARTS, type Chart } from '../../src/domain/exports/accounts-map-schema.js'

export interface MapSuggestOptions {
  chart: Chart
  output?: string
  outputFile?: string
  overwrite?: boolean
}

export function registerMapSuggest(map: Command, run: Runner, runF: RunVerb<MapSuggestOptions> = runMapSuggest): void {
  map
    .command('suggest')
    .description('a starting accounts map in a standard chart: a number for each accounting category and bank account, to read and change')
    .addOption(
      new Option('--chart <chart>', 'skr03, skr04 (DATEV), bas (SIE) or no-standard (SAF-T)').choices([...CHARTS]).makeOptionMandatory(),
    )
    .addOption(new Option('-o, --output <file>', 'the file to write, which must not exist yet (default: stdout)'))
    .option('--overwrite', 'replace the --output file when it exists')
    // What -o and --output after `suggest` reach the command as (src/cli/program.ts outputFileArgs).
    .addOption(new Option('--output-file <file>').hideHelp())
    .addHelpText('after', '\nExamples:\n  finctl export map suggest --chart skr04 -o chart.yaml\n  finctl export map set chart.yaml\n')
    .action(run(runF))
}

export async function runMapSuggest(host: VerbHost, opts: MapSuggestOptions): Promise<number> {
  const output = opts.outputFile ?? opts.output
  const target = { flag: '--output', overwrite: opts.overwrite, inputs: [] }
  const { checkOutputFile, openOutputStream } = await import('../../src/jobs/output-file.js')
  if (output !== undefined) checkOutputFile(output, target)
  const client = await host.client()
  const [accounts, categories] = await Promise.all([client.accounts.list(), client.categories()])
  const { suggestMap } = await import('../../src/jobs/export/charts.js')
  const text = suggestMap(opts.chart, accounts.data, categories.categories)
  if (output === undefined) {
    host.io.stdout.write(host.io.isStdoutTTY ? printableText(text) : text)
    return EXIT.ok
  }
  const file = await openOutputStream(output, target)
  try {
    file.stream.write(text)
    await file.commit()
  } catch (e) {
    await file.abandon()
    throw e
  }
  note(
    host.io,
    host.printer,
    `wrote a starting ${opts.chart} chart to ${printableLine(output)}: read it, then finctl export map set ${printableLine(output)}`,
  )
  return EXIT.ok
}
