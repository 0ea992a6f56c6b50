/** finctl reports cash-flow | summary */
import { Option, type Command } from 'commander'
import type { Context } from '../src/cli/context.js'
import { barChart, signed } from '../src/cli/chart.js'
import { showAmount, unconvertedNote } from '../src/cli/money.js'
import { note, printList, printRecord, renderTable, type Column } from '../src/cli/output.js'
import type { Runner } from '../src/cli/runner.js'
import { resolveAccountId } from '../src/cli/short-ids.js'
import { AppError } from '../src/kernel/errors.js'
import { INTERVALS } from '../src/domain/reports/periods.js'
import { FROM_HELP, TO_HELP, periodFlags, reportRange } from '../src/cli/period-flags.js'
import type { CashFlowReport, SummaryReport } from '../src/domain/reports/schemas.js'

export function registerReports(program: Command, run: Runner): void {
  const reports = program.command('reports').description('cash flow and financial summary, in the base currency')
  reports
    .command('cash-flow')
    .description('money in and out per period and cash-flow category (default: the last 12 months, this month to date included, by month)')
    .option('--from <when>', FROM_HELP)
    .option('--to <when>', TO_HELP)
    .addOption(new Option('--interval <interval>', 'period length').choices([...INTERVALS]).default('month'))
    .option('--account <id>', 'one bank account only: its name or id (bank_account_id)')
    .option('--as-of <timestamp>', 'as the data stood at this moment, e.g. 2026-11-05T09:00:00Z (from the audit trail)')
    .option('--chart', 'a bar chart of money in and out per period instead of the table')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl reports cash-flow --from 2026-01-01 --to 2026-06-30 --interval week\n  finctl reports cash-flow --chart\n  finctl reports cash-flow --output csv > cash-flow.csv\n',
    )
    .action(run(runCashFlow))
  reports
    .command('summary')
    .description(
      'income, expenses, counts, breakdowns, top merchants and account balances (default: the last 12 months, this month to date included)',
    )
    .option('--from <when>', FROM_HELP)
    .option('--to <when>', TO_HELP)
    .option('--account <id>', 'one bank account only: its name or id (bank_account_id)')
    .option('--as-of <timestamp>', 'as the data stood at this moment, e.g. 2026-11-05T09:00:00Z (from the audit trail)')
    .option('--top <n>', 'how many top merchants (default 10)')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl reports summary --from 2026-01-01 --to 2026-12-31 --top 20\n  finctl reports summary --from 2026-10-01 --to 2026-10-31 --as-of 2026-11-05T09:00:00Z\n',
    )
    .action(run(runSummary))
}

interface RangeOptions {
  from?: string
  to?: string
  account?: string
  asOf?: string
}

/** The days of --from and --to (periods people say), completed as the service would, by this machine's clock. */
function rangeQuery(ctx: Context, o: RangeOptions): { from: string; to: string; bank_account_id?: string; as_of?: string } {
  const range = periodFlags(ctx, o, (r) => reportRange(r, ctx.io.now())) as { from: string; to: string }
  return { ...range, bank_account_id: o.account, as_of: o.asOf }
}

// ---- cash flow ----------------------------------------------------------------------------

interface CashFlowOptions extends RangeOptions {
  interval: string
  chart?: boolean
}

const CATS = ['operations', 'investing', 'financing', 'uncategorized'] as const
type Row = CashFlowReport['periods'][number]

/** One flat row per period plus a total row: what csv, ndjson and tab-separated output carry. */
function flatRows(r: CashFlowReport): Array<Record<string, string>> {
  const cur = r.currency
  const flows = (prefix: string, f: { inflows: number; outflows: number; net: number }) => ({
    [`${prefix}inflows`]: showAmount(f.inflows, cur),
    [`${prefix}outflows`]: showAmount(f.outflows, cur),
    [`${prefix}net`]: showAmount(f.net, cur),
  })
  const row = (
    period: string,
    start: string,
    end: string,
    p: Pick<Row, 'opening_balance' | 'closing_balance' | 'by_category' | 'transfers' | 'inflows' | 'outflows' | 'net'>,
  ) => ({
    period,
    period_start: start,
    period_end: end,
    currency: cur,
    opening_balance: showAmount(p.opening_balance, cur),
    ...Object.assign({}, ...CATS.map((c) => flows(`${c}_`, p.by_category[c]))),
    ...flows('', p),
    ...flows('transfers_', p.transfers),
    closing_balance: showAmount(p.closing_balance, cur),
  })
  return [
    ...r.periods.map((p) => row(p.label, p.period_start, p.period_end, p)),
    row('total', r.from, r.to, {
      ...r.totals,
      opening_balance: r.opening_balance,
      closing_balance: r.closing_balance,
      by_category: r.by_category,
      transfers: r.transfers,
    }),
  ]
}

async function runCashFlow(ctx: Context, o: CashFlowOptions): Promise<number> {
  const range = rangeQuery(ctx, o)
  const client = await ctx.client()
  if (range.bank_account_id) range.bank_account_id = await resolveAccountId(client, range.bank_account_id)
  const r = await withSpinner(ctx, 'computing the cash-flow report', () => client.reports.cashFlow({ ...range, interval: o.interval }))
  const { io, printer } = ctx
  // Nothing moved: ask whether there are transactions at all in the range (zero amounts, or in and out cancelling, are not none).
  const still = [r.totals.inflows, r.totals.outflows, r.transfers.inflows, r.transfers.outflows].every((v) => v === 0)
  if (still) await sayWhereTheDataIs(ctx, range, false)
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printRecord(io, printer, r)
    return 0
  }
  warnUnconverted(ctx, r.unconverted_opening_balances)
  if (o.chart && printer.format === 'table') {
    // The terminal's width, or 80 when not a terminal.
    const columns = (io.isStdoutTTY ? (io.stdout as { columns?: number }).columns : undefined) ?? 80
    io.stdout.write(`Cash flow ${r.from} .. ${r.to} by ${r.interval}, ${r.currency}\n`)
    io.stdout.write(
      barChart(
        r.periods.map((p) => ({ label: p.label, inflows: p.inflows, outflows: p.outflows })),
        r.currency,
        columns,
        ctx.chalk,
      ),
    )
    io.stdout.write(
      `total in ${showAmount(r.totals.inflows, r.currency, { group: true })}, out ${showAmount(r.totals.outflows, r.currency, { group: true })}, net ${showAmount(r.totals.net, r.currency, { group: true, code: true })}\n`,
    )
    return 0
  }
  const flat = flatRows(r)
  if (printer.format === 'csv' || !io.isStdoutTTY) {
    await renderFlat(ctx, flat)
    return 0
  }
  // A terminal: periods as rows, categories as columns, amounts grouped and right-aligned.
  const cur = r.currency
  const shown = CATS.filter(
    (c) => c !== 'uncategorized' || r.by_category.uncategorized.inflows !== 0 || r.by_category.uncategorized.outflows !== 0,
  )
  const hasTransfers = r.transfers.inflows !== 0 || r.transfers.outflows !== 0
  const money = (v: (p: Row) => number) => (p: Row) => signed(ctx.chalk, v(p), cur)
  // On a narrow terminal the columns are left out in `drop` order (highest first), never wrapped:
  // transfers, the categories, money in and out; the period, its net and the closing balance stay.
  const catDrop = { uncategorized: 7, financing: 6, investing: 5, operations: 4 }
  const columns: Column<Row>[] = [
    { header: 'period', value: (p) => p.label },
    ...shown.map(
      (c): Column<Row> => ({ header: `${c} ${cur}`, value: money((p) => p.by_category[c].net), align: 'right', drop: catDrop[c] }),
    ),
    { header: `in ${cur}`, value: money((p) => p.inflows), align: 'right', drop: 3 },
    { header: `out ${cur}`, value: money((p) => p.outflows), align: 'right', drop: 2 },
    { header: `net ${cur}`, value: money((p) => p.net), align: 'right' },
    ...(hasTransfers ? [{ header: `transfers ${cur}`, value: money((p) => p.transfers.net), align: 'right', drop: 8 } as Column<Row>] : []),
    { header: `closing ${cur}`, value: money((p) => p.closing_balance), align: 'right' },
  ]
  const total = [
    'total',
    ...shown.map((c) => signed(ctx.chalk, r.by_category[c].net, cur)),
    signed(ctx.chalk, r.totals.inflows, cur),
    signed(ctx.chalk, r.totals.outflows, cur),
    signed(ctx.chalk, r.totals.net, cur),
    ...(hasTransfers ? [signed(ctx.chalk, r.transfers.net, cur)] : []),
    signed(ctx.chalk, r.closing_balance, cur),
  ]
  io.stdout.write(
    `Cash flow ${r.from} .. ${r.to} by ${r.interval}; opening balance ${showAmount(r.opening_balance, cur, { group: true, code: true })}\n`,
  )
  await renderTable(io, printer, r.periods, columns, total)
  return 0
}

/** csv, or tab-separated rows with a header line (off a terminal): plain decimals, one column per number. */
async function renderFlat(ctx: Context, rows: Array<Record<string, string | number>>): Promise<void> {
  const keys = Object.keys(rows[0] ?? {})
  await printList(
    ctx.io,
    ctx.printer,
    rows,
    keys.map((k) => ({ header: k, value: (r: Record<string, string | number>) => r[k] })),
  )
}

function warnUnconverted(ctx: Context, list: CashFlowReport['unconverted_opening_balances']): void {
  for (const u of list) {
    ctx.io.stderr.write(
      `note: the opening balance of "${u.name}" (${showAmount(u.opening_balance, u.currency_code, { group: true, code: true })}) has no exchange rate yet and is left out of the balances\n`,
    )
  }
}

// ---- summary ------------------------------------------------------------------------------

interface SummaryOptions extends RangeOptions {
  top?: string
}

interface Line {
  section: string
  name: string
  amount: number | null
  /** The amount's currency when it is not the report's (an account's balance is in the account's). */
  currency?: string
  count: number | null
}

function summaryLines(s: SummaryReport): Line[] {
  return [
    { section: 'total', name: 'income', amount: s.income, count: null },
    { section: 'total', name: 'expenses', amount: s.expenses, count: null },
    { section: 'total', name: 'net', amount: s.net, count: s.transaction_count - s.transfers.count },
    { section: 'total', name: 'transfers (net, left out)', amount: s.transfers.net, count: s.transfers.count },
    { section: 'count', name: 'transactions', amount: null, count: s.transaction_count },
    { section: 'count', name: 'pending', amount: null, count: s.pending_count },
    { section: 'count', name: 'unreconciled', amount: null, count: s.unreconciled_count },
    ...s.by_accounting_category.map((x) => ({
      section: 'accounting category',
      name: x.accounting_category,
      amount: x.amount,
      count: x.count,
    })),
    ...s.by_category.map((x) => ({ section: 'category', name: x.category ?? '(none)', amount: x.amount, count: x.count })),
    ...s.top_merchants.map((x) => ({ section: 'merchant', name: x.merchant_name, amount: x.amount, count: x.count })),
    ...s.accounts.map((x) => ({
      section: 'account balance',
      name: `${x.name} (${x.currency_code})`,
      amount: x.balance,
      currency: x.currency_code,
      count: null,
    })),
  ]
}

async function runSummary(ctx: Context, o: SummaryOptions): Promise<number> {
  if (o.top !== undefined && !/^\d+$/.test(o.top)) throw new AppError('usage', '--top must be a whole number')
  const range = rangeQuery(ctx, o)
  const client = await ctx.client()
  if (range.bank_account_id) range.bank_account_id = await resolveAccountId(client, range.bank_account_id)
  const s = await withSpinner(ctx, 'computing the summary', () => client.reports.summary({ ...range, top: o.top }))
  const { io, printer } = ctx
  if (s.transaction_count === 0) await sayWhereTheDataIs(ctx, range, true)
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printRecord(io, printer, s)
    return 0
  }
  warnUnconverted(ctx, s.unconverted_opening_balances)
  for (const a of s.accounts) {
    const text = unconvertedNote(a, a.unconverted_transactions ?? [])
    // Not silenced by --quiet: the balance shown is short of these.
    if (text) io.stderr.write(`note: ${text}\n`)
  }
  const cur = s.currency
  const lines = summaryLines(s)
  if (printer.format === 'csv' || !io.isStdoutTTY) {
    await renderFlat(
      ctx,
      lines.map((l) => ({
        section: l.section,
        name: l.name,
        currency: l.amount === null ? '' : (l.currency ?? cur),
        amount: l.amount === null ? '' : showAmount(l.amount, l.currency ?? cur),
        count: l.count ?? '',
      })),
    )
    return 0
  }
  io.stdout.write(`Summary ${s.from} .. ${s.to}${s.bank_account_id ? ` (account ${s.bank_account_id})` : ''}, ${cur}\n`)
  // Each section's name on its first line only.
  const rows = lines.map((l, i) => ({ ...l, heading: i > 0 && lines[i - 1].section === l.section ? '' : l.section }))
  await renderTable(io, printer, rows, [
    { header: 'section', value: (l) => l.heading },
    { header: 'name', value: (l) => l.name },
    {
      header: `amount ${cur}`,
      // An amount in another currency (an account's balance) says which.
      value: (l) =>
        l.amount === null
          ? ''
          : l.currency && l.currency !== cur
            ? `${signed(ctx.chalk, l.amount, l.currency)} ${l.currency}`
            : signed(ctx.chalk, l.amount, cur),
      align: 'right',
    },
    { header: 'count', value: (l) => (l.count === null ? '' : l.count.toLocaleString('en-US')), align: 'right' },
  ])
  return 0
}

/**
 * A report over days without transactions says so on stderr, with the first and last day of the
 * company's (or the account's) transactions, so that an import of old years is found again.
 */
async function sayWhereTheDataIs(
  ctx: Context,
  range: { from: string; to: string; bank_account_id?: string },
  known: boolean,
): Promise<void> {
  const client = await ctx.client()
  const list = client.transactions.list
  const account = range.bank_account_id
  if (!known && (await list({ from: range.from, to: range.to, bank_account_id: account, limit: 1 })).data.length > 0) return
  const [first, last] = await Promise.all([
    list({ bank_account_id: account, sort: 'transaction_date', limit: 1 }),
    list({ bank_account_id: account, sort: '-transaction_date', limit: 1 }),
  ])
  const whose = account ? "the account's" : "the company's"
  const a = first.data[0]?.transaction_date
  const b = last.data[0]?.transaction_date
  const where =
    a && b
      ? `${whose} transactions are dated ${a} to ${b} (try --from ${a} --to ${b})`
      : account
        ? 'the account has no transactions yet'
        : 'the company has no transactions yet'
  note(ctx.io, ctx.printer, `note: no transactions from ${range.from} to ${range.to}; ${where}`)
}

/** A spinner on a terminal's stderr while a report is computed (a large company's takes a moment). */
async function withSpinner<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  const { Spinner } = await import('../src/cli/spinner.js')
  const spinner = new Spinner(ctx.io, ctx.io.isStderrTTY && !ctx.printer.quiet)
  spinner.start(text)
  try {
    return await work()
  } finally {
    spinner.stop()
  }
}
