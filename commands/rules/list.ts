/** finctl rules list: the rules in the order they run. */
import type { Command } from 'commander'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { api, ruleColumns } from './shared.js'

export type ListOptions = Record<string, never>

export function registerList(rules: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  rules
    .command('list')
    .description('list the rules in the order they run')
    .addHelpText('after', '\nExample:\n  finctl rules list --json\n')
    .action(run(runF))
}

export async function runList(host: VerbHost): Promise<number> {
  const data = await api(await host.client()).list()
  await printList(host.io, host.printer, data, ruleColumns, { empty: 'no rules yet: `finctl rules create`' })
  return 0
}
