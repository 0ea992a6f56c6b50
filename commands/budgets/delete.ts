/** finctl budgets delete --category NAME [--version V] [--from M] [--to M]. */
import { type Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { MONTH_HELP } from './shared.js'

export interface DeleteOptions {
  category: string
  version?: string
  /** `--version` after the command (src/cli/budget-version.ts). */
  budgetVersion?: string
  from?: string
  to?: string
}

export function registerDelete(budgets: Command, run: Runner, runF: RunVerb<DeleteOptions> = runDelete): void {
  budgets
    .command('delete')
    .description("delete a category's budgets in a range of months (every month without --from and --to)")
    .requiredOption('--category <name>', "the transactions' category")
    .option('--version <name>', 'the budget version (default: the current one)')
    .addOption(new Option('--budget-version <name>').hideHelp())
    .option('--from <month>', `first month, ${MONTH_HELP}`)
    .option('--to <month>', `last month, ${MONTH_HELP}`)
    .addHelpText('after', '\nExample:\n  finctl budgets delete --category Travel --from 2026-07\n')
    .action(run(runF))
}

export async function runDelete(host: VerbHost, o: DeleteOptions): Promise<number> {
  const client = await host.client()
  const r = await client.budgets.delete({ category: o.category, version: o.budgetVersion ?? o.version, from: o.from, to: o.to })
  if (host.printer.format !== 'table') {
    await printRecord(host.io, host.printer, r)
    return EXIT.ok
  }
  note(
    host.io,
    host.printer,
    `deleted ${r.deleted} budget month(s) of ${printableLine(r.category)} in version ${r.version}: ${r.months.join(', ')}`,
  )
  return EXIT.ok
}
