/** finctl rates list [--currency C] [--from W] [--to W] [--limit N | --all]: rates by date, then currency. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { addPaging, wholeNumber } from '../../src/cli/flags.js'
import { note, printList, streamList } from '../../src/cli/output.js'
import { FROM_HELP, TO_HELP, periodFlags } from '../../src/cli/period-flags.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { rateColumns } from './shared.js'

export interface ListOptions {
  currency?: string
  from?: string
  to?: string
  limit?: string
  all?: boolean
}

export function registerList(rates: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  addPaging(
    rates
      .command('list')
      .description('list rates by date, then currency')
      .option('--currency <code>', 'only this currency')
      .option('--from <when>', FROM_HELP)
      .option('--to <when>', TO_HELP),
  )
    .addHelpText('after', '\nExample:\n  finctl rates list --currency USD --from 2026-01-01 --all --output csv > usd.csv\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const period = periodFlags(host, o)
  const client = await host.client()
  const query = { currency: o.currency?.toUpperCase(), ...period, limit: wholeNumber(o.limit, '--limit', { max: 1000 }) }
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.rates.pages({ ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(host.io, host.printer, pages, rateColumns)
    return EXIT.ok
  }
  const page = await client.rates.list(query)
  await printList(host.io, host.printer, page.data, rateColumns, { empty: 'no rates: import some with `finctl rates import FILE`' })
  if (page.pagination?.has_more && host.printer.format === 'table')
    note(host.io, host.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row`)
  return EXIT.ok
}
