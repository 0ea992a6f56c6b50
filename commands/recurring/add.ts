/** finctl recurring add --name N --amount A --interval I --start D [--match T] [--category C] [--account A] [--currency C] [--ends-on D]. */
import { type Command, Option } from 'commander'
import { noteNearCategory } from '../../src/cli/category-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { RECURRING_INTERVAL_WORDS } from '../../src/cli/flag-values.js'
import { wholeNumber } from '../../src/cli/flags.js'
import { typedAmount } from '../../src/cli/money.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import type { AddRecurringRequest } from '../../src/domain/recurring/schemas.js'

export interface AddOptions {
  name: string
  amount: string
  interval: string
  start: string
  match?: string
  category?: string
  account?: string
  currency?: string
  endsOn?: string
  dateTolerance?: string
  amountTolerance?: string
}

export function registerAdd(recurring: Command, run: Runner, runF: RunVerb<AddOptions> = runAdd): void {
  recurring
    .command('add')
    .description('add a recurring payment by hand (accepted)')
    .requiredOption('--name <text>', 'what it is')
    .requiredOption('--amount <amount>', 'signed as a transaction: a payment is negative')
    .addOption(new Option('--interval <interval>', 'how often').choices([...RECURRING_INTERVAL_WORDS]).makeOptionMandatory())
    .requiredOption('--start <date>', 'the first date (its day of the month is kept)')
    .option('--match <text>', 'the merchant or description its transactions carry (default: the name)')
    .option('--category <name>', 'its category (its budget is then not spread in the forecast)')
    .option('--account <id>', 'the bank account it is paid from: its name or id')
    .option('--currency <code>', "default: the company's")
    .option('--ends-on <date>', 'the last date it may fall on')
    .option('--date-tolerance <days>', 'days a payment may be off its date (default 3)')
    .option('--amount-tolerance <percent>', 'percent an amount may differ (default 10; 0: exact)')
    .addHelpText(
      'after',
      '\nExample:\n  finctl recurring add --name Payroll --amount -18000.00 --interval last-working-day --start 2026-01-30\n',
    )
    .action(run(runF))
}

export async function runAdd(host: VerbHost, o: AddOptions): Promise<number> {
  // 0 is a tolerance too: the date exact, the amount equal.
  const dateTolerance = wholeNumber(o.dateTolerance, '--date-tolerance', { min: 0, max: 7 })
  const amountTolerance = wholeNumber(o.amountTolerance, '--amount-tolerance', { min: 0, max: 50 })
  const client = await host.client()
  await noteNearCategory(host, client, o.category, 'set')
  const item = await client.recurring.add({
    name: o.name,
    amount: typedAmount(o.amount, '--amount'),
    interval: o.interval.replaceAll('-', '_') as AddRecurringRequest['interval'],
    start: o.start,
    match: o.match,
    category: o.category,
    bank_account_id: o.account === undefined ? undefined : await resolveAccountId(client, o.account),
    currency: o.currency?.toUpperCase(),
    ends_on: o.endsOn,
    date_tolerance: dateTolerance,
    amount_tolerance: amountTolerance,
  })
  await printRecord(host.io, host.printer, item)
  note(host.io, host.printer, `added ${printableLine(item.name)}: next expected ${item.next_expected}`)
  return EXIT.ok
}
