/** finctl budgets set --category NAME --monthly AMOUNT [--currency C] [--from M] [--to M] [--version V] [--rollover]. */
import { type Command, Option } from 'commander'
import { noteNearCategory } from '../../src/cli/category-names.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { showAmount, typedAmount } from '../../src/cli/money.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { MONTH_HELP, budgetColumns } from './shared.js'

export interface SetOptions {
  category: string
  monthly: string
  currency?: string
  from?: string
  to?: string
  version?: string
  /** `--version` after the command (src/cli/budget-version.ts). */
  budgetVersion?: string
  rollover?: boolean
}

export function registerSet(budgets: Command, run: Runner, runF: RunVerb<SetOptions> = runSet): void {
  budgets
    .command('set')
    .description("set a category's budget for each month of a range (a month with that budget already is left as it is)")
    .requiredOption('--category <name>', "the transactions' category")
    .requiredOption('--monthly <amount>', 'the amount for each month (spending allowed, exact to the minor unit)')
    .option('--currency <code>', "the budget's currency (default: the company's)")
    .option('--from <month>', `first month (default: this month), ${MONTH_HELP}`)
    .option('--to <month>', `last month (default: 11 months after --from), ${MONTH_HELP}`)
    .option('--version <name>', 'the budget version (default: the current one, or original)')
    .addOption(new Option('--budget-version <name>').hideHelp())
    .option('--rollover', "each month takes the month before's unspent amount")
    .addHelpText(
      'after',
      '\nExamples:\n  finctl budgets set --category Rent --monthly 2500.00 --from 2026-01 --to 2026-12\n  finctl budgets set --category Travel --monthly 400 --rollover --version reforecast\n',
    )
    .action(run(runF))
}

export async function runSet(host: VerbHost, o: SetOptions): Promise<number> {
  const client = await host.client()
  await noteNearCategory(host, client, o.category, 'set')
  const r = await client.budgets.set({
    category: o.category,
    monthly: typedAmount(o.monthly, '--monthly'),
    currency: o.currency?.toUpperCase(),
    from: o.from,
    to: o.to,
    version: o.budgetVersion ?? o.version,
    rollover: o.rollover === true ? true : undefined,
  })
  if (host.printer.format === 'json' || host.printer.format === 'ndjson') {
    await printRecord(host.io, host.printer, r)
    return EXIT.ok
  }
  await printList(host.io, host.printer, r.budgets, budgetColumns)
  const b = r.budgets[0]
  note(
    host.io,
    host.printer,
    `${printableLine(r.category)}: ${b ? showAmount(b.amount, b.currency, { group: true, code: true }) : ''} a month from ${r.from} to ${r.to} in version ${r.version} (${r.created} new, ${r.updated} changed, ${r.unchanged} unchanged)`,
  )
  return EXIT.ok
}
