/** finctl rates delete --date D --currency C [--yes]: delete one rate (transactions keep the rate they were converted at). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import { type PromptHost, confirmOrYes } from '../../src/cli/prompts.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export interface DeleteOptions {
  date: string
  currency: string
  yes?: boolean
}

export function registerDelete(rates: Command, run: Runner, runF: RunVerb<DeleteOptions, VerbHost & PromptHost> = runDelete): void {
  rates
    .command('delete')
    .description('delete the rate of a currency on a date (transactions converted at it keep their rate)')
    .requiredOption('--date <date>', 'the date (YYYY-MM-DD)')
    .requiredOption('--currency <code>', 'the currency')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl rates delete --date 2026-03-02 --currency USD --yes\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost & PromptHost, o: DeleteOptions): Promise<number> {
  const currency = o.currency.toUpperCase()
  await confirmOrYes(host, o.yes, `Delete the ${currency} rate of ${o.date}?`)
  const r = await (await host.client()).rates.delete(o.date, currency)
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `deleted the ${r.currency} rate of ${r.date}`)
  return EXIT.ok
}
