/** finctl accounts transactions ID [filters of tx list] [--limit N | --all]: an account's transactions. */
import { noteNearCategory } from '../../src/cli/category-names.js'
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, streamList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { accountsFor } from '../../src/cli/short-ids.js'
import { amountTotal } from '../../src/cli/totals.js'
import { type ListFilterOptions, addListFilters, listQuery } from '../../src/cli/tx-filters.js'

export interface TransactionsOptions extends ListFilterOptions {
  all?: boolean
}

export function registerTransactions(accounts: Command, run: Runner, runF: RunVerb<TransactionsOptions> = runTransactions): void {
  addListFilters(accounts.command('transactions').argument('<id>').description("an account's transactions"), { account: false })
    .addHelpText('after', '\nExample:\n  finctl accounts transactions $ACCOUNT --from 2026-01-01 --unreconciled\n')
    .action(run(runF))
}

export async function runTransactions(host: VerbHost, o: TransactionsOptions, [given]: string[]): Promise<number> {
  const client = await host.client()
  const query = listQuery(o, host)
  const named: { bank_account_id?: string } = { bank_account_id: given }
  await accountsFor(host, client, named, 'ID')
  await noteNearCategory(host, client, o.category, 'filter')
  const id = named.bank_account_id ?? given
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.accounts.transactionPages(id, { ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(host.io, host.printer, pages, transactionColumns, amountTotal)
    return EXIT.ok
  }
  const page = await client.accounts.transactions(id, query)
  await printList(host.io, host.printer, page.data, transactionColumns, { footer: amountTotal(page.data), empty: 'no transactions match' })
  if (page.pagination?.has_more && host.printer.format === 'table')
    note(host.io, host.printer, `showing the first ${page.data.length}: add --all for every row`)
  return EXIT.ok
}
