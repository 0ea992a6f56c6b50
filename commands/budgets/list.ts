/** finctl budgets list [--version V] [--category NAME] [--from M] [--to M]. */
import { type Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { didYouMean } from '../../src/kernel/near-names.js'
import { MONTH_HELP, budgetColumns } from './shared.js'

export interface ListOptions {
  version?: string
  /** `--version` after the command (src/cli/budget-version.ts). */
  budgetVersion?: string
  category?: string
  from?: string
  to?: string
}

export function registerList(budgets: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  budgets
    .command('list')
    .description("a version's budgets (the current one unless named), by category then month")
    .option('--version <name>', 'the budget version (default: the current one)')
    .addOption(new Option('--budget-version <name>').hideHelp())
    .option('--category <name>', 'one category only')
    .option('--from <month>', `first month, ${MONTH_HELP}`)
    .option('--to <month>', `last month, ${MONTH_HELP}`)
    .addHelpText('after', '\nExample:\n  finctl budgets list --from 2026-01 --to 2026-12 --output csv > budgets.csv\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const client = await host.client()
  const r = await client.budgets.list({ version: o.budgetVersion ?? o.version, category: o.category, from: o.from, to: o.to })
  let empty = `no budgets in version ${r.version}: set one with \`finctl budgets set --category NAME --monthly AMOUNT\``
  if (o.category !== undefined && r.budgets.length === 0 && (host.io.isStdoutTTY || host.io.isStderrTTY)) {
    // The version's other categories, for the nearest to a typo (printed where the empty note is).
    const others = (await client.budgets.list({ version: r.version })).budgets.map((b) => b.category).filter((c) => c !== o.category)
    empty = `no budget of "${printableLine(o.category)}" in version ${r.version}${printableLine(didYouMean(others, o.category))}`
  }
  await printList(host.io, host.printer, r.budgets, budgetColumns, { empty })
  if (host.printer.format === 'table' && r.budgets.length) note(host.io, host.printer, `version ${r.version}`)
  return EXIT.ok
}
