/** finctl rates set --date D --currency C --rate R [--source T]: set or replace one rate. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'

export interface SetOptions {
  date: string
  currency: string
  rate: string
  source?: string
}

export function registerSet(rates: Command, run: Runner, runF: RunVerb<SetOptions> = runSet): void {
  rates
    .command('set')
    .description('set (or replace) the rate of a currency on a date')
    .requiredOption('--date <date>', 'the date (YYYY-MM-DD)')
    .requiredOption('--currency <code>', 'the currency (not the base)')
    .requiredOption('--rate <decimal>', 'units of the base currency per 1 unit of the currency')
    .option('--source <text>', 'where the rate comes from (default manual)')
    .addHelpText('after', '\nExample:\n  finctl rates set --date 2026-03-02 --currency USD --rate 0.9231\n')
    .action(run(runF))
}

export async function runSet(host: VerbHost, o: SetOptions): Promise<number> {
  const client = await host.client()
  const r = await client.rates.set(o.date, o.currency.toUpperCase(), { rate: o.rate, source: o.source })
  await printRecord(host.io, host.printer, r)
  note(host.io, host.printer, `${r.currency} on ${r.date}: ${r.rate}`)
  return EXIT.ok
}
