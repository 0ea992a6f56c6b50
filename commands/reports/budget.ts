/** finctl reports budget [--from D] [--to D] [--interval month|quarter|year] [--version V] [--as-of T] [--chart]: budget against actual. */
import { type Command, Option } from 'commander'
import { bulletChart } from '../../src/cli/bullet-chart.js'
import { signed } from '../../src/cli/chart.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { minorOf, showAmount } from '../../src/cli/money.js'
import { type Column, Styled, note, printRecord, renderTable } from '../../src/cli/output.js'
import { FROM_HELP, TO_HELP, periodFlags } from '../../src/cli/period-flags.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { BUDGET_INTERVALS, type BudgetReport } from '../../src/domain/budgets/schemas.js'
import { type ReportHost, renderFlat, withSpinner } from './shared.js'

export interface BudgetOptions {
  from?: string
  to?: string
  interval: string
  version?: string
  /** `--version` after the command (src/cli/budget-version.ts). */
  budgetVersion?: string
  asOf?: string
  chart?: boolean
}

export function registerBudget(reports: Command, run: Runner, runF: RunVerb<BudgetOptions, ReportHost> = runBudget): void {
  reports
    .command('budget')
    .description('budget against actual per category and period, and the spending without a budget (default: this year by month)')
    .option('--from <when>', FROM_HELP)
    .option('--to <when>', TO_HELP)
    .addOption(new Option('--interval <interval>', 'period length').choices([...BUDGET_INTERVALS]).default('month'))
    .option('--version <name>', 'the budget version (default: the current one)')
    .addOption(new Option('--budget-version <name>').hideHelp())
    .option('--as-of <timestamp>', 'as the data and the budgets stood at this moment, e.g. 2026-11-05T09:00:00Z')
    .option('--chart', 'bullet bars (actual, and the budget marked) instead of the table')
    .addHelpText(
      'after',
      '\nExamples:\n  finctl reports budget --from 2026-01-01 --to 2026-12-31 --interval quarter\n  finctl reports budget --chart\n  finctl reports budget --json\n',
    )
    .action(run(runF))
}

type Row = BudgetReport['periods'][number]['rows'][number] & { period: string; unbudgeted?: boolean }

export async function runBudget(host: ReportHost, o: BudgetOptions): Promise<number> {
  const range = periodFlags(host, o) as { from?: string; to?: string }
  const client = await host.client()
  const r = await withSpinner(host, 'computing the budget report', () =>
    client.budgets.report({ ...range, interval: o.interval, version: o.budgetVersion ?? o.version, as_of: o.asOf }),
  )
  const { io, printer, chalk } = host
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printRecord(io, printer, r)
    return EXIT.ok
  }
  const cur = r.currency
  const rows: Row[] = r.periods.flatMap((p) => [
    ...p.rows.map((x) => ({ ...x, period: p.label })),
    ...(p.unbudgeted.actual !== 0
      ? [
          {
            period: p.label,
            category: 'unbudgeted',
            budget: 0,
            rollover: 0,
            actual: p.unbudgeted.actual,
            variance: -p.unbudgeted.actual,
            percent_used: null,
            budget_currency: cur,
            estimate: false,
            unbudgeted: true,
          },
        ]
      : []),
  ])
  if (rows.some((x) => x.estimate))
    note(io, printer, 'note: a budget in another currency took a rate older than its month: an estimate (marked ~)')
  if (o.chart && printer.format === 'table') {
    const columns = (io.isStdoutTTY ? (io.stdout as { columns?: number }).columns : undefined) ?? 80
    const minor = (n: number) => minorOf(n, cur) ?? 0n
    io.stdout.write(`Budget against actual ${r.from} .. ${r.to} by ${r.interval}, version ${printableLine(r.version)}, ${cur}\n`)
    io.stdout.write(
      bulletChart(
        rows
          .filter((x) => !x.unbudgeted)
          .map((x) => ({ label: `${x.period} ${x.category}`, budget: minor(x.budget), actual: minor(x.actual) })),
        cur,
        columns,
        chalk,
      ),
    )
    if (r.unbudgeted.actual !== 0)
      io.stdout.write(`unbudgeted spending ${showAmount(r.unbudgeted.actual, cur, { group: true, code: true })}\n`)
    return EXIT.ok
  }
  const flat = rows.map((x) => ({
    period: x.period,
    category: x.category,
    currency: cur,
    budget: x.unbudgeted ? '' : showAmount(x.budget, cur),
    rollover: x.unbudgeted ? '' : showAmount(x.rollover, cur),
    actual: showAmount(x.actual, cur),
    variance: x.unbudgeted ? '' : showAmount(x.variance, cur),
    percent_used: x.percent_used === null ? '' : String(x.percent_used),
    budget_currency: x.unbudgeted ? '' : x.budget_currency,
    estimate: x.estimate ? 'yes' : '',
  }))
  if (printer.format === 'csv' || !io.isStdoutTTY) {
    await renderFlat(host, flat)
    return EXIT.ok
  }
  const paint = (n: number) => new Styled(signed(chalk, n, cur))
  const columns: Column<Row>[] = [
    { header: 'period', value: (x) => x.period },
    // The period and the category name the row: neither is left out.
    { header: 'category', value: (x) => x.category, wide: true, keep: true },
    {
      header: `budget ${cur}`,
      value: (x) => (x.unbudgeted ? '' : new Styled(`${x.estimate ? '~' : ''}${signed(chalk, x.budget, cur)}`)),
      align: 'right',
    },
    { header: `actual ${cur}`, value: (x) => paint(x.actual), align: 'right' },
    { header: `variance ${cur}`, value: (x) => (x.unbudgeted ? '' : paint(x.variance)), align: 'right' },
    { header: 'used', value: (x) => (x.percent_used === null ? '' : `${x.percent_used}%`), align: 'right', drop: 1 },
  ]
  io.stdout.write(`Budget against actual ${r.from} .. ${r.to} by ${r.interval}, version ${printableLine(r.version)}\n`)
  await renderTable(io, printer, rows, columns)
  if (rows.length === 0)
    note(io, printer, 'no budgets and no spending in the range: set one with `finctl budgets set --category NAME --monthly AMOUNT`')
  return EXIT.ok
}
