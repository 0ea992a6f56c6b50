/** finctl imports list [--account A] [--kind K] [--limit N | --all]: import batches, newest first. */
import type { Command } from 'commander'
import { actorNames } from '../../src/cli/actor-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { addPaging } from '../../src/cli/flags.js'
import { note, printList, streamList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { AppError } from '../../src/kernel/errors.js'
import { columns, limitOf } from './shared.js'

export interface ListOptions {
  account?: string
  kind?: string
  limit?: string
  all?: boolean
}

const KINDS = ['csv', 'statement', 'seed']

export function registerList(im: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  addPaging(
    im
      .command('list')
      .description('list import batches (tx import, statements upload, finctl seed), newest first')
      .option('--account <id>', 'only this bank account: its name or id')
      .option('--kind <kind>', 'csv (tx import), statement (statements upload) or seed (finctl seed)'),
  )
    .addHelpText('after', '\nExample:\n  finctl imports list --account Operating --json\n')
    .action(run(runF))
}

export async function runList(ctx: VerbHost, o: ListOptions): Promise<number> {
  if (o.kind !== undefined && !KINDS.includes(o.kind)) throw new AppError('usage', `--kind must be one of ${KINDS.join(', ')}`)
  const client = await ctx.client()
  const query = { kind: o.kind, bank_account_id: o.account, limit: limitOf(o.limit) }
  if (query.bank_account_id) query.bank_account_id = await resolveAccountId(client, query.bank_account_id)
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.imports.pages({ ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, columns(await actorNames(client, ctx.printer)))
    return EXIT.ok
  }
  const page = await client.imports.list(query)
  const name = await actorNames(
    client,
    ctx.printer,
    page.data.map((b) => b.actor),
  )
  await printList(ctx.io, ctx.printer, page.data, columns(name), {
    empty: 'no imports: `finctl tx import FILE --account A` and `finctl statements upload FILE --account A` record one each',
  })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing the first ${page.data.length}: add --all for every row`)
  return EXIT.ok
}
