/** finctl docs list [--tx ID] [--unlinked]: the company's documents, oldest first. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { addPaging, wholeNumber } from '../../src/cli/flags.js'
import { note, printList, streamList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { documentColumns } from './shared.js'
import { resolveTransactionId } from '../../src/cli/short-ids.js'

export interface ListOptions {
  tx?: string
  unlinked?: boolean
  limit?: string
  all?: boolean
}

export function registerList(docs: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  addPaging(
    docs
      .command('list')
      .description('list documents, oldest first')
      .option('--tx <id>', 'only those linked to this transaction')
      .option('--unlinked', 'only those linked to no transaction'),
  )
    .addHelpText('after', '\nExample:\n  finctl docs list --unlinked\n')
    .action(run(runF))
}

export async function runList(ctx: VerbHost, o: ListOptions): Promise<number> {
  if (o.tx && o.unlinked) throw new AppError('usage', '--tx and --unlinked exclude each other: give one')
  const limit = wholeNumber(o.limit, '--limit', { max: 1000 })
  const client = await ctx.client()
  const tx = o.tx === undefined ? undefined : await resolveTransactionId(client, o.tx, '--tx')
  const query = { transaction_id: tx, unlinked: o.unlinked || undefined, limit }
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.documents.pages({ ...query, limit: limit ?? 1000 })) yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, documentColumns)
    return EXIT.ok
  }
  const page = await client.documents.list(query)
  await printList(ctx.io, ctx.printer, page.data, documentColumns, { empty: 'no documents: add one with `finctl docs add FILE`' })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing the first ${page.data.length}: add --all for every row`)
  return EXIT.ok
}
