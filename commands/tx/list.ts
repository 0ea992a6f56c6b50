/** finctl tx list [filters] [--all]: one page of transactions, or every page streamed. */
import { transactionsPaths } from '../../src/api/paths.js'
import { noteNearCategory } from '../../src/cli/category-names.js'
import type { Command } from 'commander'
import { transactionColumns } from '../../src/cli/columns.js'
import { note, printList, streamJsonRows, streamList } from '../../src/cli/output.js'
import type { ApiResult } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import type { RowPage } from '../../src/client/row-pages.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { accountByName, accountsFor, namesAccounts, rememberAccounts } from '../../src/cli/short-ids.js'
import type { Client, TransactionQuery } from '../../src/client/client.js'
import { amountTotal } from '../../src/cli/totals.js'
import { addListFilters, listQuery, type ListFilterOptions } from '../../src/cli/tx-filters.js'
import type { Transaction } from '../../src/domain/schemas.js'

export type ListOptions = ListFilterOptions & { all?: boolean }

export function registerList(tx: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  addListFilters(tx.command('list').description('list transactions (one page; --all for every page)'))
    .addHelpText(
      'after',
      '\nExamples:\n  finctl tx list --from 2026-01-01 --to 2026-03-31 --category Rent\n  finctl tx list --all --output csv > transactions.csv\n',
    )
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const client = await host.client()
  const query = listQuery(o, host)
  // One page's table names its rows' accounts from the page's own answer; --all, and an --account
  // given by name, read the accounts' list (a start-up of the list alone: docs/performance.md).
  const namedOnPage = !o.all && namesAccounts(host.printer) && !accountByName(query)
  if (!namedOnPage) await accountsFor(host, client, query)
  await noteNearCategory(host, client, o.category, 'filter')
  if (o.all) {
    // Progress on a terminal's stderr, unless rows stream to the same terminal (a table is printed at the end).
    const { ProgressLine } = await import('../../src/cli/progress.js')
    const shown = host.io.isStderrTTY && !host.printer.quiet && (!host.io.isStdoutTTY || host.printer.format === 'table')
    const bar = new ProgressLine(host.io, shown)
    const started = Date.now()
    const q = {
      ...query,
      // Fewer requests than pages of 1,000 (each has its own checks and writes); larger pages cost more
      // in garbage collection than they save (docs/performance.md).
      limit: query.limit ?? 2000,
      // The bar needs the total: counted once with the first page (the cursor carries it).
      ...(shown ? { include_total: true } : {}),
    }
    async function* walk<P extends { pagination?: { total?: number } }, R>(source: AsyncIterable<P>, rows: (page: P) => R[]) {
      let done = 0
      try {
        for await (const page of source) {
          const r = rows(page)
          done += r.length
          bar.update({ done, total: page.pagination?.total ?? done, elapsedMs: Date.now() - started })
          yield r
        }
      } finally {
        bar.end()
      }
    }
    const p = host.printer
    if (p.format === 'ndjson' || (p.format === 'json' && !p.shape)) {
      // Rows printed as JSON are the service's own text of them, not parsed and written again.
      const { rowPages } = await import('../../src/client/row-pages.js')
      await streamJsonRows(
        host.io,
        p,
        walk(
          pagesOfAnyServer<typeof q, RowPage>(q, query.limit, (qq) => rowPages(client, transactionsPaths.list.path, qq)),
          (page: RowPage) => page.rows,
        ),
      )
      return 0
    }
    const pages = walk(
      pagesOfAnyServer<typeof q, ApiResult<Transaction[]>>(q, query.limit, (qq) => client.transactions.pages(qq)),
      (page: ApiResult<Transaction[]>) => page.data,
    )
    await streamList(host.io, host.printer, pages, transactionColumns, amountTotal)
    return 0
  }
  const page = namedOnPage ? await listNamingAccounts(host, client, query) : await client.transactions.list(query)
  await printList(host.io, host.printer, page.data, transactionColumns, { footer: amountTotal(page.data), empty: 'no transactions match' })
  if (page.pagination?.has_more && host.printer.format === 'table') {
    // No total asked: counting every match would make one page cost as much as the whole list.
    note(host.io, host.printer, `showing the first ${page.data.length}: add --all for every row, or --limit N`)
  }
  return 0
}

/**
 * A page with the names of its rows' accounts (`include_account_names`); from a server that does not
 * know it yet (it refuses the parameter), the accounts' list and the page, as before.
 */
export async function listNamingAccounts(host: VerbHost, client: Client, query: TransactionQuery): Promise<ApiResult<Transaction[]>> {
  try {
    const page = await client.transactions.list({ ...query, include_account_names: true })
    rememberAccounts(Object.entries(page.accountNames ?? {}).map(([id, name]) => ({ id, name })))
    return page
  } catch (e) {
    const refused =
      e instanceof AppError && e.code === 'validation_error' && (e.details ?? []).some((d) => d.path === 'include_account_names')
    if (!refused) throw e
    await accountsFor(host, client, query)
    return client.transactions.list(query)
  }
}

/**
 * The pages of `q`; a server from before pages of 2,000 (at most 1,000) refuses the first request
 * naming `limit`, and the walk starts again with pages of 1,000. Nothing is printed before it.
 */
export async function* pagesOfAnyServer<Q extends object, P>(q: Q, asked: unknown, pagesOf: (q: Q) => AsyncIterable<P>): AsyncGenerator<P> {
  const it = pagesOf(q)[Symbol.asyncIterator]()
  let first: IteratorResult<P>
  try {
    first = await it.next()
  } catch (e) {
    const refused =
      asked === undefined && e instanceof AppError && e.code === 'validation_error' && (e.details ?? []).some((d) => d.path === 'limit')
    if (!refused) throw e
    yield* pagesOf({ ...q, limit: 1000 })
    return
  }
  try {
    if (first.done) return
    yield first.value
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value
  } finally {
    await it.return?.()
  }
}
