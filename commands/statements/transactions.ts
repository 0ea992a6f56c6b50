/** finctl statements transactions ID [--sort F] [--limit N | --all]: a statement's transactions. */
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { addPaging } from '../../src/cli/flags.js'
import { note, printList, streamList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { amountTotal } from '../../src/cli/totals.js'
import { limitOf, statementId } from './shared.js'
import { accountsFor } from '../../src/cli/short-ids.js'

export interface TransactionsOptions {
  sort?: string
  limit?: string
  all?: boolean
}

export function registerTransactions(st: Command, run: Runner, runF: RunVerb<TransactionsOptions> = runTransactions): void {
  const statementTransactions = st
    .command('transactions')
    .argument('<id>')
    .description("a statement's transactions: created from its lines or reconciled with them")
    .option('--sort <field>', 'transaction_date, -transaction_date (default), amount, -amount, created_at')
  addPaging(statementTransactions)
    .addHelpText('after', '\nExample:\n  finctl statements transactions $STATEMENT --all --output csv > lines.csv\n')
    .action(run(runF))
}

export async function runTransactions(ctx: VerbHost, o: TransactionsOptions, [given]: string[]): Promise<number> {
  const client = await ctx.client()
  const id = await statementId(client, given)
  await accountsFor(ctx, client, {})
  const query = { sort: o.sort, limit: limitOf(o.limit) }
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.statements.transactionPages(id, {
        ...query,
        limit: query.limit ?? 1000,
      }))
        yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, transactionColumns, amountTotal)
    return EXIT.ok
  }
  const page = await client.statements.transactions(id, query)
  await printList(ctx.io, ctx.printer, page.data, transactionColumns, {
    footer: amountTotal(page.data),
    empty: 'the statement has no transactions',
  })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing the first ${page.data.length}: add --all for every row`)
  return EXIT.ok
}
