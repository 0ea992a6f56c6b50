/** finctl rates import FILE [--format ecb|plain]: a rates file, all of it or nothing. */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { requireInputFile } from '../../src/cli/files.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { count } from '../../src/kernel/words.js'

const FORMATS = ['ecb', 'plain']

export interface ImportOptions {
  format?: string
}

export function registerImport(rates: Command, run: Runner, runF: RunVerb<ImportOptions> = runImport): void {
  rates
    .command('import')
    .argument('<file>', "the ECB's eurofxref-hist.csv (rates per 1 EUR) or a date,currency,rate CSV")
    .description('import a rates file: all of it or nothing; rates of a date and currency already there are replaced')
    .option('--format <format>', 'ecb or plain (default: told by the header)')
    .addHelpText(
      'after',
      '\nECB files are converted to the base currency through EUR cross rates. A plain file gives units of\nthe base currency per 1 unit of the currency.\n\nExamples:\n  finctl rates import eurofxref-hist.csv\n  finctl rates import rates.csv --format plain --json\n',
    )
    .action(run(runF))
}

export async function runImport(host: VerbHost, o: ImportOptions, [file]: string[]): Promise<number> {
  if (o.format !== undefined && !FORMATS.includes(o.format))
    throw new AppError('usage', `--format must be ecb or plain (got "${o.format}")`)
  await requireInputFile(file)
  const bytes = await readFile(file)
  const client = await host.client()
  const r = await client.rates.import({
    file_name: basename(file),
    format: o.format as 'ecb' | 'plain' | undefined,
    content_base64: bytes.toString('base64'),
  })
  if (host.printer.format === 'json') await printRecord(host.io, host.printer, r)
  else
    await printRecord(host.io, host.printer, {
      imported: r.imported,
      replaced: r.replaced,
      skipped: r.skipped,
      currencies: r.currencies.join(' '),
      from: r.from ?? '',
      to: r.to ?? '',
    })
  for (const n of r.notes) note(host.io, host.printer, n)
  note(
    host.io,
    host.printer,
    `imported ${count(r.imported, 'rate')}, replaced ${r.replaced}, for ${count(r.currencies.length, 'currency', 'currencies')}${r.from ? ` from ${r.from} to ${r.to}` : ''}`,
  )
  return EXIT.ok
}
