/** finctl budgets versions | current NAME: the versions of the budgets, and which one is current. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printList, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { BudgetVersion } from '../../src/domain/budgets/schemas.js'

const columns = [
  { header: 'version', value: (v: BudgetVersion) => v.name },
  { header: 'current', value: (v: BudgetVersion) => (v.current ? 'yes' : '') },
  { header: 'budget months', value: (v: BudgetVersion) => v.budgets, align: 'right' as const },
  { header: 'created', value: (v: BudgetVersion) => v.created_at, whole: true },
]

export function registerVersions(budgets: Command, run: Runner, runF: RunVerb<object> = runVersions): void {
  budgets
    .command('versions')
    .description('the budget versions, the current one marked')
    .addHelpText('after', '\nExample:\n  finctl budgets versions\n')
    .action(run(runF))
}

export async function runVersions(host: VerbHost): Promise<number> {
  const client = await host.client()
  await printList(host.io, host.printer, await client.budgets.versions(), columns, { empty: 'no budgets yet' })
  return EXIT.ok
}

export function registerCurrent(budgets: Command, run: Runner, runF: RunVerb<object> = runCurrent): void {
  budgets
    .command('current')
    .description('make a version the current one (read by reports budget and forecast unless --version names another)')
    .argument('<name>', 'the version')
    .addHelpText('after', '\nExample:\n  finctl budgets current reforecast\n')
    .action(run(runF))
}

export async function runCurrent(host: VerbHost, _o: object, args: string[]): Promise<number> {
  const client = await host.client()
  const v = await client.budgets.makeCurrent(args[0])
  if (host.printer.format !== 'table') await printRecord(host.io, host.printer, v)
  else note(host.io, host.printer, `version ${v.name} is the current one`)
  return EXIT.ok
}
