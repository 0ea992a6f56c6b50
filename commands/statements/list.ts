/** finctl statements list [--account ID] [--status S] [--limit N | --all]: statements, newest first. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { addPaging } from '../../src/cli/flags.js'
import { note, printList, streamList, type Column } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { limitOf } from './shared.js'
import { idColumn } from '../../src/cli/columns.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'

export interface ListOptions {
  account?: string
  status?: string
  limit?: string
  all?: boolean
}

export function registerList(st: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  addPaging(
    st
      .command('list')
      .description('list statements, newest first')
      .option('--account <id>', 'only this bank account: its name or id')
      .option('--status <status>', 'pending, processing, completed or failed'),
  )
    .addHelpText('after', '\nExample:\n  finctl statements list --account $ACCOUNT --status failed\n')
    .action(run(runF))
}

// On a narrow terminal the counts and the format go first, then the upload time (whole while it
// stays), so that a failed statement's status and error keep their place.
const statementColumns: Column<Statement>[] = [
  idColumn((s: Statement) => s.id),
  { header: 'uploaded', value: (s) => s.created_at.slice(0, 19).replace('T', ' '), whole: true, drop: 0 },
  { header: 'file', value: (s) => s.file_name },
  { header: 'format', value: (s) => s.format, drop: 4 },
  { header: 'status', value: (s) => s.status },
  // On a terminal with spaces, so that a narrow column wraps it between its two dates, never inside one.
  {
    header: 'period',
    value: (s) => (s.period_start ? `${s.period_start}..${s.period_end}` : ''),
    tty: (s) => (s.period_start ? `${s.period_start} .. ${s.period_end}` : ''),
  },
  { header: 'lines', value: (s) => s.line_count, align: 'right', drop: 3 },
  { header: 'created', value: (s) => s.transaction_count - s.matched_count, align: 'right', drop: 1 },
  { header: 'reconciled', value: (s) => s.matched_count, align: 'right', drop: 2 },
  { header: 'duplicates', value: (s) => s.duplicate_count, align: 'right', drop: 5 },
  { header: 'balance', value: (s) => s.balance_check ?? '' },
  // Why a statement failed: a long message, wrapped inside its cell (the widest share of the text).
  { header: 'error', value: (s) => s.error ?? '', wide: true, min: 24 },
]

export async function runList(ctx: VerbHost, o: ListOptions): Promise<number> {
  const client = await ctx.client()
  const query = { bank_account_id: o.account, status: o.status, limit: limitOf(o.limit) }
  if (query.bank_account_id) query.bank_account_id = await resolveAccountId(client, query.bank_account_id)
  if (o.all) {
    const pages = (async function* () {
      for await (const page of client.statements.pages({ ...query, limit: query.limit ?? 1000 })) yield page.data
    })()
    await streamList(ctx.io, ctx.printer, pages, statementColumns)
    return EXIT.ok
  }
  const page = await client.statements.list(query)
  await printList(ctx.io, ctx.printer, page.data, statementColumns, {
    empty: 'no statements: upload one with `finctl statements upload FILE --account ID`',
  })
  if (page.pagination?.has_more && ctx.printer.format === 'table')
    note(ctx.io, ctx.printer, `showing the first ${page.data.length}: add --all for every row`)
  return EXIT.ok
}
