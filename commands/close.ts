/** finctl close status [--month M] | close MONTH [--force --reason T] [--export F,...] | close reopen MONTH --reason T | close history (docs/closing.md) */
import { join } from 'node:path'
import type { Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { requireInputFile } from '../src/cli/files.js'
import { note, printList, printRecord, type Column } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'
import type { CloseExport, CloseRecord, CloseStatus, CloseStatusAccount } from '../src/domain/closing/schemas.js'
import { AppError } from '../src/kernel/errors.js'

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/

const SUBCOMMANDS = ['status', 'reopen', 'history']

function month(flag: string, v: string): string {
  if (MONTH.test(v)) return v
  // `close statu`: a misspelled command, not a month (close takes a month of its own, so commander cannot tell).
  const near = SUBCOMMANDS.filter((c) => editDistance(c, v.toLowerCase()) <= 2)
  if (near.length && !/\d/.test(v))
    throw new AppError('usage', `unknown command '${v}' (Did you mean ${near.join(' or ')}?), or give the month to close, YYYY-MM`)
  throw new AppError('usage', `${flag} must be a month written YYYY-MM, not "${v}"`)
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = cur
  }
  return prev[b.length]
}

type Row = Pick<
  CloseStatusAccount,
  'name' | 'currency_code' | 'not_reconciled' | 'uncategorized' | 'pending' | 'unconverted' | 'statements_processing'
> & {
  statement: string
  book: string
  difference: string
  ready: string
}

const num = (v: number | null) => (v === null ? '' : String(v))
const columns: Column<Row>[] = [
  { header: 'account', value: (r) => r.name },
  { header: 'currency', value: (r) => r.currency_code },
  { header: 'statement', value: (r) => r.statement, align: 'right' },
  { header: 'book', value: (r) => r.book, align: 'right' },
  { header: 'difference', value: (r) => r.difference, align: 'right' },
  { header: 'not reconciled', value: (r) => r.not_reconciled, align: 'right' },
  { header: 'uncategorized', value: (r) => r.uncategorized, align: 'right' },
  { header: 'pending', value: (r) => r.pending, align: 'right' },
  { header: 'no rate', value: (r) => r.unconverted, align: 'right' },
  { header: 'processing', value: (r) => r.statements_processing, align: 'right' },
  { header: 'ready', value: (r) => r.ready },
]

export function registerClose(program: Command, run: Runner): void {
  const close = program
    .command('close')
    .description('close a month: its transactions can no longer change (the lock date); its readiness, reopening')
    .argument('[month]', 'the month to close, YYYY-MM')
    .option('--force', 'close although `close status` finds the month not ready (needs --reason; recorded as forced)')
    .option('--reason <text>', 'why (required with --force)')
    .option(
      '--export <formats>',
      'also write the month as these exports (comma-separated: ledger, hledger, beancount, xlsx, csv) and record their SHA-256 on the close',
    )
    .option('--output-dir <dir>', 'the folder for --export files, created if missing (default: the current folder)')
    .option('--accounts-map <file>', 'JSON or YAML: the journal accounts for --export (docs/exporting.md)')
    .option('--overwrite', 'replace --export files that exist')
    .addHelpText(
      'after',
      '\nExit codes: 0 closed; 12 the month is not ready (see `finctl close status`), nothing changed.\n\nExamples:\n  finctl close status --month 2026-10\n  finctl close 2026-10\n  finctl close 2026-10 --export hledger,xlsx --output-dir books/\n  finctl close 2026-10 --force --reason "bank statement arrives late; balances checked by hand"\n  finctl close reopen 2026-10 --reason "late supplier invoice"\n',
    )
    .action(run(runClose))
  close
    .command('status')
    .description(
      "a month's readiness to close: per account the statement's closing balance beside the book balance, and what is still open",
    )
    .option('--month <month>', 'the month, YYYY-MM (default: the last full month)')
    .addHelpText(
      'after',
      '\nExit codes: 0 the month is ready to close; 12 it is not (for CI gates).\n\nExample:\n  finctl close status --month 2026-10 --json\n',
    )
    .action(run(runStatus))
  close
    .command('reopen')
    .argument('<month>', 'the month to reopen, YYYY-MM')
    .description("reopen a closed month (the owner's login only): the lock date goes back to the end of the month before")
    .option('--reason <text>', 'why (required; recorded)')
    .addHelpText('after', '\nExample:\n  finctl close reopen 2026-10 --reason "late supplier invoice"\n')
    .action(run(runReopen))
  close
    .command('history')
    .description('every close and reopen, the latest first')
    .addHelpText('after', '\nExample:\n  finctl close history --json\n')
    .action(run(runHistory))
}

function rowsOf(s: CloseStatus): Row[] {
  const rows: Row[] = s.accounts.map((a) => ({
    ...a,
    statement: a.statement ? `${a.statement.closing_balance} (${a.statement.period_end})` : 'none',
    book: num(a.book_balance),
    difference: num(a.difference),
    ready: a.ready ? 'yes' : 'no',
  }))
  rows.push({
    name: '(company)',
    currency_code: '',
    statement: '',
    book: '',
    difference: '',
    ...s.company,
    ready: s.ready ? 'yes' : 'no',
  })
  return rows
}

async function runStatus(ctx: Context, o: { month?: string }): Promise<number> {
  const m = o.month === undefined ? undefined : month('--month', o.month)
  const s = await (await ctx.client()).close.status(m)
  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') await printRecord(ctx.io, ctx.printer, s)
  else await printList(ctx.io, ctx.printer, rowsOf(s), columns)
  const closed = s.closed ? ` (closed: the lock date is ${s.lock_date})` : ''
  if (s.ready) note(ctx.io, ctx.printer, `${s.month} is ready to close${closed}`)
  else {
    note(ctx.io, ctx.printer, `${s.month} is not ready to close${closed}:`)
    for (const a of s.accounts.filter((x) => !x.ready)) note(ctx.io, ctx.printer, `  ${a.name}: ${a.blockers.join(', ')}`)
  }
  return s.ready ? EXIT.ok : EXIT.notReady
}

interface CloseOptions {
  force?: boolean
  reason?: string
  export?: string
  outputDir?: string
  accountsMap?: string
  overwrite?: boolean
}

async function runClose(ctx: Context, o: CloseOptions, [m]: string[]): Promise<number> {
  if (m === undefined) throw new AppError('usage', 'give the month to close (finctl close 2026-10), or a command: status, reopen, history')
  month('MONTH', m)
  if (o.force && !o.reason?.trim())
    throw new AppError('usage', '--force needs --reason TEXT: say why the month is closed although not ready')
  const plan = o.export === undefined ? undefined : await exportPlan(m, o)
  if (plan === undefined && (o.outputDir || o.accountsMap || o.overwrite))
    throw new AppError('usage', '--output-dir, --accounts-map and --overwrite go with --export FORMATS')
  const client = await ctx.client()
  // With --export, a month closed already keeps its close and gets the exports (a retry after a failed write).
  const already = plan && (await client.close.status(m)).closed
  if (already) note(ctx.io, ctx.printer, `${m} is closed already: writing its exports and recording them on its close`)
  else {
    const r = await client.close.month(m, { ...(o.force ? { force: true } : {}), ...(o.reason ? { reason: o.reason } : {}) })
    if (!plan) await printRecord(ctx.io, ctx.printer, r.record)
    note(
      ctx.io,
      ctx.printer,
      `closed ${m}: transactions dated on or before ${r.record.lock_date} can no longer change${r.record.forced ? ' (forced: it was not ready)' : ''}`,
    )
  }
  if (!plan) return EXIT.ok
  const { writeCloseExports } = await import('../src/jobs/export/close-exports.js')
  const written = await writeCloseExports(client, plan)
  await printList(ctx.io, ctx.printer, written, exportColumns(plan.dir))
  note(
    ctx.io,
    ctx.printer,
    `recorded ${written.length} export${written.length === 1 ? '' : 's'} on the close of ${m} (finctl verify --close ${m} checks them)`,
  )
  return EXIT.ok
}

async function exportPlan(m: string, o: CloseOptions) {
  const { EXPORT_FORMATS } = await import('../src/jobs/export/format.js')
  const formats = [
    ...new Set(
      (o.export ?? '')
        .split(',')
        .map((f) => f.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]
  const wrong = formats.filter((f) => !(EXPORT_FORMATS as readonly string[]).includes(f))
  if (!formats.length || wrong.length)
    throw new AppError(
      'usage',
      `--export takes formats among ${EXPORT_FORMATS.join(', ')}${wrong.length ? `, not ${wrong.join(', ')}` : ''}`,
    )
  const { checkCloseExports, readAccountsMap } = await import('../src/jobs/export/close-exports.js')
  let accountsMap: Awaited<ReturnType<typeof readAccountsMap>> | undefined
  if (o.accountsMap !== undefined) {
    await requireInputFile(o.accountsMap)
    accountsMap = await readAccountsMap(o.accountsMap)
  }
  const plan = {
    month: m,
    formats: formats as (typeof EXPORT_FORMATS)[number][],
    dir: o.outputDir ?? '.',
    accountsMap,
    overwrite: o.overwrite,
  }
  await checkCloseExports(plan)
  return plan
}

const exportColumns = (dir: string): Column<CloseExport>[] => [
  { header: 'format', value: (r) => r.format },
  { header: 'file', value: (r) => join(dir, r.file_name) },
  { header: 'rows', value: (r) => r.rows, align: 'right' },
  { header: 'bytes', value: (r) => r.bytes, align: 'right' },
  { header: 'sha256', value: (r) => r.sha256 },
]

async function runReopen(ctx: Context, o: { reason?: string }, [m]: string[]): Promise<number> {
  month('MONTH', m)
  // `close reopen M --reason T`: commander hands --reason to `close` (which has one too) before `reopen` sees it.
  const reason = o.reason ?? (ctx.globals as { reason?: string }).reason
  if (!reason?.trim()) throw new AppError('usage', '--reason TEXT is required: say why the month is reopened')
  const r = await (await ctx.client()).close.reopen(m, reason)
  await printRecord(ctx.io, ctx.printer, r)
  note(ctx.io, ctx.printer, `reopened ${m}: the lock date is ${r.lock_date ?? 'none'}`)
  return EXIT.ok
}

const historyColumns: Column<CloseRecord>[] = [
  { header: 'at', value: (r) => r.created_at },
  { header: 'action', value: (r) => r.action },
  { header: 'period', value: (r) => r.period },
  { header: 'lock date', value: (r) => r.lock_date ?? '' },
  { header: 'actor', value: (r) => r.actor },
  { header: 'forced', value: (r) => (r.forced ? 'yes' : '') },
  { header: 'reason', value: (r) => r.reason ?? '' },
]

async function runHistory(ctx: Context): Promise<number> {
  const list = await (await ctx.client()).close.history()
  await printList(ctx.io, ctx.printer, list, historyColumns, { empty: 'no month was ever closed' })
  return EXIT.ok
}
