/** What the reports share: their range flags, the flat rows off a terminal, their notes on stderr and the spinner. */
import type { Context } from '../../src/cli/context.js'
import { showAmount } from '../../src/cli/money.js'
import { note, printList, say } from '../../src/cli/output.js'
import { periodFlags, reportRange } from '../../src/cli/period-flags.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import type { CashFlowReport } from '../../src/domain/reports/schemas.js'

/** The host of a report: it colours the signs of amounts on a terminal. */
export type ReportHost = VerbHost & Pick<Context, 'chalk'>

export interface RangeOptions {
  from?: string
  to?: string
  account?: string
  asOf?: string
}

/** The days of --from and --to (periods people say), completed as the service would, by this machine's clock. */
export function rangeQuery(host: VerbHost, o: RangeOptions): { from: string; to: string; bank_account_id?: string; as_of?: string } {
  const range = periodFlags(host, o, (r) => reportRange(r, host.io.now())) as { from: string; to: string }
  return { ...range, bank_account_id: o.account, as_of: o.asOf }
}

/** csv, or tab-separated rows with a header line (off a terminal): plain decimals, one column per number. */
export async function renderFlat(host: VerbHost, rows: Array<Record<string, string | number>>): Promise<void> {
  const keys = Object.keys(rows[0] ?? {})
  await printList(
    host.io,
    host.printer,
    rows,
    keys.map((k) => ({ header: k, value: (r: Record<string, string | number>) => r[k] })),
  )
}

export function warnUnconverted(host: VerbHost, list: CashFlowReport['unconverted_opening_balances']): void {
  for (const u of list) {
    say(
      host.io,
      `note: the opening balance of "${printableLine(u.name)}" (${showAmount(u.opening_balance, u.currency_code, { group: true, code: true })}) has no exchange rate yet and is left out of the balances`,
    )
  }
}

/**
 * A report over days without transactions says so on stderr, with the first and last day of the
 * company's (or the account's) transactions, so that an import of old years is found again.
 */
export async function sayWhereTheDataIs(
  host: VerbHost,
  range: { from: string; to: string; bank_account_id?: string },
  known: boolean,
): Promise<void> {
  const client = await host.client()
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
  note(host.io, host.printer, `note: no transactions from ${range.from} to ${range.to}; ${where}`)
}

/** A spinner on a terminal's stderr while a report is computed (a large company's takes a moment). */
export async function withSpinner<T>(host: VerbHost, text: string, work: () => Promise<T>): Promise<T> {
  const { Spinner } = await import('../../src/cli/spinner.js')
  const spinner = new Spinner(host.io, host.io.isStderrTTY && !host.printer.quiet)
  spinner.start(text)
  try {
    return await work()
  } finally {
    spinner.stop()
  }
}
