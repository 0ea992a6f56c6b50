/** finctl recurring detect [--date-tolerance N] [--amount-tolerance PCT | --exact] [--min-occurrences N] [--from D]. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { shortId } from '../../src/cli/short-ids.js'
import { itemColumns } from './shared.js'

export interface DetectOptions {
  dateTolerance?: string
  amountTolerance?: string
  exact?: boolean
  minOccurrences?: string
  from?: string
  transactions?: boolean
}

export function registerDetect(recurring: Command, run: Runner, runF: RunVerb<DetectOptions> = runDetect): void {
  recurring
    .command('detect')
    .description("find recurring payments in the history: suggestions to accept (they replace the last detection's)")
    .option('--date-tolerance <days>', 'days a payment may be off its date (default 3; weekly at most 1, every two weeks 2)')
    .option('--amount-tolerance <percent>', 'percent an amount may differ (default 10)')
    .option('--exact', 'amounts must be equal (--amount-tolerance 0)')
    .option('--min-occurrences <n>', 'payments a series needs (default 3)')
    .option('--from <date>', 'read the history from this day (default: all of it)')
    .option('--transactions', 'list the transactions each suggestion rests on')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl recurring detect\n  finctl recurring detect --exact --transactions\n  finctl recurring accept ID\n',
    )
    .action(run(runF))
}

export async function runDetect(host: VerbHost, o: DetectOptions): Promise<number> {
  // 0 is a tolerance too: the date exact, the amount equal (as --exact).
  const query = {
    date_tolerance: wholeNumber(o.dateTolerance, '--date-tolerance', { min: 0, max: 7 }),
    amount_tolerance: o.exact ? 0 : wholeNumber(o.amountTolerance, '--amount-tolerance', { min: 0, max: 50 }),
    min_occurrences: wholeNumber(o.minOccurrences, '--min-occurrences', { min: 3, max: 100 }),
    from: o.from,
  }
  const client = await host.client()
  const r = await client.recurring.detect(query)
  if (host.printer.format === 'json' || host.printer.format === 'ndjson') {
    await printRecord(host.io, host.printer, r)
    return EXIT.ok
  }
  await printList(host.io, host.printer, r.items, itemColumns, { empty: 'no recurring payments found' })
  if (o.transactions && host.printer.format === 'table')
    for (const i of r.items) host.io.stdout.write(`${shortId(i.id)} rests on: ${i.transactions.map(shortId).join(' ')}\n`)
  note(
    host.io,
    host.printer,
    `${r.items.length} found in ${r.scanned} transactions of ${r.payees} payees; accept one with \`finctl recurring accept ID\``,
  )
  return EXIT.ok
}
