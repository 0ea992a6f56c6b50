/** finctl reports summary [--from W] [--to W] [--account A] [--as-of T] [--top N]: income, expenses, breakdowns and balances. */
import type { Command } from 'commander'
import { signed } from '../../src/cli/chart.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { unconvertedNote, showAmount } from '../../src/cli/money.js'
import { Styled, printRecord, renderTable, say } from '../../src/cli/output.js'
import { FROM_HELP, TO_HELP } from '../../src/cli/period-flags.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { SummaryReport } from '../../src/domain/reports/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { type RangeOptions, type ReportHost, rangeQuery, renderFlat, sayWhereTheDataIs, warnUnconverted, withSpinner } from './shared.js'

export interface SummaryOptions extends RangeOptions {
  top?: string
}

export function registerSummary(reports: Command, run: Runner, runF: RunVerb<SummaryOptions, ReportHost> = runSummary): void {
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
    .action(run(runF))
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

export async function runSummary(host: ReportHost, o: SummaryOptions): Promise<number> {
  if (o.top !== undefined && !/^\d+$/.test(o.top)) throw new AppError('usage', '--top must be a whole number')
  const range = rangeQuery(host, o)
  const client = await host.client()
  if (range.bank_account_id) range.bank_account_id = await resolveAccountId(client, range.bank_account_id)
  const s = await withSpinner(host, 'computing the summary', () => client.reports.summary({ ...range, top: o.top }))
  const { io, printer, chalk } = host
  if (s.transaction_count === 0) await sayWhereTheDataIs(host, range, true)
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printRecord(io, printer, s)
    return EXIT.ok
  }
  warnUnconverted(host, s.unconverted_opening_balances)
  for (const a of s.accounts) {
    const text = unconvertedNote(a, a.unconverted_transactions ?? [])
    // Not silenced by --quiet: the balance shown is short of these.
    if (text) say(io, `note: ${text}`)
  }
  const cur = s.currency
  const lines = summaryLines(s)
  if (printer.format === 'csv' || !io.isStdoutTTY) {
    await renderFlat(
      host,
      lines.map((l) => ({
        section: l.section,
        name: l.name,
        currency: l.amount === null ? '' : (l.currency ?? cur),
        amount: l.amount === null ? '' : showAmount(l.amount, l.currency ?? cur),
        count: l.count ?? '',
      })),
    )
    return EXIT.ok
  }
  io.stdout.write(`Summary ${s.from} .. ${s.to}${s.bank_account_id ? ` (account ${s.bank_account_id})` : ''}, ${cur}\n`)
  // Each section's name on its first line only.
  const rows = lines.map((l, i) => ({ ...l, heading: i > 0 && lines[i - 1].section === l.section ? '' : l.section }))
  // A column says one currency only when every value in it is in that one; else each value carries its code.
  const mixed = lines.some((l) => l.amount !== null && l.currency !== undefined && l.currency !== cur)
  await renderTable(io, printer, rows, [
    { header: 'section', value: (l) => l.heading },
    { header: 'name', value: (l) => l.name },
    {
      header: mixed ? 'amount' : `amount ${cur}`,
      value: (l) =>
        l.amount === null
          ? ''
          : mixed
            ? new Styled(`${signed(chalk, l.amount, l.currency ?? cur)} ${l.currency ?? cur}`)
            : new Styled(signed(chalk, l.amount, cur)),
      align: 'right',
    },
    { header: 'count', value: (l) => (l.count === null ? '' : l.count.toLocaleString('en-US')), align: 'right' },
  ])
  return EXIT.ok
}
