/** finctl rates import FILE | list | set | delete: the company's dated exchange rates to its base currency. */
import type { Command } from 'commander'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { addPaging, wholeNumber } from '../src/cli/flags.js'
import { note, printList, printRecord, streamList, type Column } from '../src/cli/output.js'
import { FROM_HELP, TO_HELP, periodFlags } from '../src/cli/period-flags.js'
import { confirmOrYes } from '../src/cli/prompts.js'
import type { Runner } from '../src/cli/runner.js'
import type { ExchangeRate } from '../src/domain/rates/schemas.js'
import { AppError } from '../src/kernel/errors.js'

const rateColumns: Column<ExchangeRate>[] = [
  { header: 'date', value: (r) => r.date },
  { header: 'currency', value: (r) => r.currency },
  { header: 'rate', value: (r) => r.rate, align: 'right' },
  { header: 'source', value: (r) => r.source },
]

const FORMATS = ['ecb', 'plain']

export function registerRates(program: Command, run: Runner): void {
  const rates = program
    .command('rates')
    .description("dated exchange rates to the company's base currency: transactions in other currencies convert at the rate of their date")
  rates
    .command('import')
    .argument('<file>', "the ECB's eurofxref-hist.csv (rates per 1 EUR) or a date,currency,rate CSV")
    .description('import a rates file: all of it or nothing; rates of a date and currency already there are replaced')
    .option('--format <format>', 'ecb or plain (default: told by the header)')
    .addHelpText(
      'after',
      '\nECB files are converted to the base currency through EUR cross rates. A plain file gives units of\nthe base currency per 1 unit of the currency.\n\nExamples:\n  finctl rates import eurofxref-hist.csv\n  finctl rates import rates.csv --format plain --json\n',
    )
    .action(run(runImport))
  addPaging(
    rates
      .command('list')
      .description('list rates by date, then currency')
      .option('--currency <code>', 'only this currency')
      .option('--from <when>', FROM_HELP)
      .option('--to <when>', TO_HELP),
  )
    .addHelpText('after', '\nExample:\n  finctl rates list --currency USD --from 2026-01-01 --all --output csv > usd.csv\n')
    .action(run(runList))
  rates
    .command('set')
    .description('set (or replace) the rate of a currency on a date')
    .requiredOption('--date <date>', 'the date (YYYY-MM-DD)')
    .requiredOption('--currency <code>', 'the currency (not the base)')
    .requiredOption('--rate <decimal>', 'units of the base currency per 1 unit of the currency')
    .option('--source <text>', 'where the rate comes from (default manual)')
    .addHelpText('after', '\nExample:\n  finctl rates set --date 2026-03-02 --currency USD --rate 0.9231\n')
    .action(run(runSet))
  rates
    .command('delete')
    .description('delete the rate of a currency on a date (transactions converted at it keep their rate)')
    .requiredOption('--date <date>', 'the date (YYYY-MM-DD)')
    .requiredOption('--currency <code>', 'the currency')
    .option('--yes', 'do not ask to confirm')
    .addHelpText('after', '\nExample:\n  finctl rates delete --date 2026-03-02 --currency USD --yes\n')
    .action(run(runDelete))
}

async function runImport(ctx: Context, o: { format?: string }, [file]: string[]): Promise<number> {
  if (o.format !== undefined && !FORMATS.includes(o.format))
    throw new AppError('usage', `--format must be ecb or plain (got "${o.format}")`)
  await requireInputFile(file)
  const bytes = await readFile(file)
  const client = await ctx.client()
  const r = await client.rates.import({
    file_name: basename(file),
    format: o.format as 'ecb' | 'plain' | undefined,
    content_base64: bytes.toString('base64'),
  })
  if (ctx.printer.format === 'json') await printRecord(ctx.io, ctx.printer, r)
  else
    await printRecord(ctx.io, ctx.printer, {
      imported: r.imported,
      replaced: r.replaced,
      skipped: r.skipped,
      currencies: r.currencies.join(' '),
      from: r.from ?? '',
      to: r.to ?? '',
    })
  for (const n of r.notes) note(ctx.io, ctx.printer, n)
  note(
    ctx.io,
    ctx.printer,
    `imported ${r.imported} rate(s), replaced ${r.replaced}, for ${r.currencies.length} currencies${r.from ? ` from ${r.from} to ${r.to}` : ''}`,
  )
  return EXIT.ok
}

async function runList(ctx: Context, o: { currency?: string; from?: string; to?: string; limit?: string; all?: boolean }): Promise<number> {
  const period = periodFlags(ctx, o)
  const client = await ctx.client()
  const query = { currency: o.currency?.toUpperCase(), ...period, limit: wholeNumber(o.limit, '--limit', { max: 1000 }) }
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.pages<ExchangeRate>('/api-v1/exchange-rates', { ...query, limit: query.limit ?? 1000 }))
        yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, rateColumns)
    return EXIT.ok
  }
  const page = await client.rates.list(query)
  await printList(ctx.io, ctx.printer, page.data, rateColumns, { empty: 'no rates: import some with `finctl rates import FILE`' })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing ${page.data.length} of ${page.pagination.total}: add --all for every row`)
  return EXIT.ok
}

async function runSet(ctx: Context, o: { date: string; currency: string; rate: string; source?: string }): Promise<number> {
  const client = await ctx.client()
  const r = await client.rates.set(o.date, o.currency.toUpperCase(), { rate: o.rate, source: o.source })
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `${r.currency} on ${r.date}: ${r.rate}`)
  return EXIT.ok
}

async function runDelete(ctx: Context, o: { date: string; currency: string; yes?: boolean }): Promise<number> {
  const currency = o.currency.toUpperCase()
  await confirmOrYes(ctx, o.yes, `Delete the ${currency} rate of ${o.date}?`)
  const r = await (await ctx.client()).rates.delete(o.date, currency)
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `deleted the ${r.currency} rate of ${r.date}`)
  return EXIT.ok
}
