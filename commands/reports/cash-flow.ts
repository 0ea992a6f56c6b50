/** finctl reports cash-flow [--from W] [--to W] [--interval I] [--account A] [--as-of T] [--chart]: money in and out per period. */
import { type Command, Option } from 'commander'
import { barChart, signed } from '../../src/cli/chart.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { showAmount } from '../../src/cli/money.js'
import { type Column, Styled, printRecord, renderTable } from '../../src/cli/output.js'
import { FROM_HELP, TO_HELP } from '../../src/cli/period-flags.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { INTERVALS } from '../../src/domain/reports/periods.js'
import type { CashFlowReport } from '../../src/domain/reports/schemas.js'
import { type RangeOptions, type ReportHost, rangeQuery, renderFlat, sayWhereTheDataIs, warnUnconverted, withSpinner } from './shared.js'

export interface CashFlowOptions extends RangeOptions {
  interval: string
  chart?: boolean
}

export function registerCashFlow(reports: Command, run: Runner, runF: RunVerb<CashFlowOptions, ReportHost> = runCashFlow): void {
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
    .action(run(runF))
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
    p: Pick<Row, 'opening_balance' | 'opened' | 'closing_balance' | 'by_category' | 'transfers' | 'inflows' | 'outflows' | 'net'>,
  ) => ({
    period,
    period_start: start,
    period_end: end,
    currency: cur,
    opening_balance: showAmount(p.opening_balance, cur),
    ...Object.assign({}, ...CATS.map((c) => flows(`${c}_`, p.by_category[c]))),
    ...flows('', p),
    ...flows('transfers_', p.transfers),
    opened: showAmount(p.opened, cur),
    closing_balance: showAmount(p.closing_balance, cur),
  })
  return [
    ...r.periods.map((p) => row(p.label, p.period_start, p.period_end, p)),
    row('total', r.from, r.to, {
      ...r.totals,
      opening_balance: r.opening_balance,
      opened: r.opened,
      closing_balance: r.closing_balance,
      by_category: r.by_category,
      transfers: r.transfers,
    }),
  ]
}

export async function runCashFlow(host: ReportHost, o: CashFlowOptions): Promise<number> {
  const range = rangeQuery(host, o)
  const client = await host.client()
  if (range.bank_account_id) range.bank_account_id = await resolveAccountId(client, range.bank_account_id)
  const r = await withSpinner(host, 'computing the cash-flow report', () => client.reports.cashFlow({ ...range, interval: o.interval }))
  const { io, printer, chalk } = host
  // Nothing moved: ask whether there are transactions at all in the range (zero amounts, or in and out cancelling, are not none).
  const still = [r.totals.inflows, r.totals.outflows, r.transfers.inflows, r.transfers.outflows].every((v) => v === 0)
  if (still) await sayWhereTheDataIs(host, range, false)
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printRecord(io, printer, r)
    return EXIT.ok
  }
  warnUnconverted(host, r.unconverted_opening_balances)
  if (o.chart && printer.format === 'table') {
    // The terminal's width, or 80 when not a terminal.
    const columns = (io.isStdoutTTY ? (io.stdout as { columns?: number }).columns : undefined) ?? 80
    io.stdout.write(`Cash flow ${r.from} .. ${r.to} by ${r.interval}, ${r.currency}\n`)
    io.stdout.write(
      barChart(
        r.periods.map((p) => ({ label: p.label, inflows: p.inflows, outflows: p.outflows })),
        r.currency,
        columns,
        chalk,
      ),
    )
    io.stdout.write(
      `total in ${showAmount(r.totals.inflows, r.currency, { group: true })}, out ${showAmount(r.totals.outflows, r.currency, { group: true })}, net ${showAmount(r.totals.net, r.currency, { group: true, code: true })}\n`,
    )
    return EXIT.ok
  }
  const flat = flatRows(r)
  if (printer.format === 'csv' || !io.isStdoutTTY) {
    await renderFlat(host, flat)
    return EXIT.ok
  }
  // A terminal: periods as rows, categories as columns, amounts grouped and right-aligned.
  const cur = r.currency
  const shown = CATS.filter(
    (c) => c !== 'uncategorized' || r.by_category.uncategorized.inflows !== 0 || r.by_category.uncategorized.outflows !== 0,
  )
  const hasTransfers = r.transfers.inflows !== 0 || r.transfers.outflows !== 0
  // Accounts whose opening date falls inside the range bring their opening balance in its period.
  const hasOpened = r.periods.some((p) => p.opened !== 0)
  // Amounts finctl colours itself (Styled): kept as they are where outside text is escaped.
  const paint = (amount: number) => new Styled(signed(chalk, amount, cur))
  const money = (v: (p: Row) => number) => (p: Row) => paint(v(p))
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
    ...(hasOpened ? [{ header: `opened ${cur}`, value: money((p) => p.opened), align: 'right' } as Column<Row>] : []),
    { header: `closing ${cur}`, value: money((p) => p.closing_balance), align: 'right' },
  ]
  const total = [
    'total',
    ...shown.map((c) => paint(r.by_category[c].net)),
    paint(r.totals.inflows),
    paint(r.totals.outflows),
    paint(r.totals.net),
    ...(hasTransfers ? [paint(r.transfers.net)] : []),
    ...(hasOpened ? [paint(r.opened)] : []),
    paint(r.closing_balance),
  ]
  const title = `Cash flow ${r.from} .. ${r.to} by ${r.interval}`
  const opening = `opening balance ${showAmount(r.opening_balance, cur, { group: true, code: true })}`
  // One line when it fits the terminal, else two.
  const width = (io.stdout as { columns?: number }).columns ?? Number.POSITIVE_INFINITY
  io.stdout.write(`${title}${title.length + opening.length + 2 <= width ? '; ' : '\n'}${opening}\n`)
  await renderTable(io, printer, r.periods, columns, total)
  return EXIT.ok
}
