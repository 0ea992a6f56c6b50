/** finctl alias list: the aliases and what each runs. */
import type { Command } from 'commander'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner } from '../../src/cli/runner.js'
import type { AliasHost } from './shared.js'

export type ListOptions = Record<string, never>

export function registerList(alias: Command, run: Runner, runF: RunVerb<ListOptions, AliasHost> = runList): void {
  alias
    .command('list')
    .description('list the aliases')
    .addHelpText('after', '\nExamples:\n  finctl alias list\n  finctl alias list --json\n')
    .action(run(runF))
}

export async function runList(host: AliasHost): Promise<number> {
  const rows = Object.entries(host.profiles().aliases())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, expansion]) => ({ name, expansion }))
  await printList(
    host.io,
    host.printer,
    rows,
    [
      { header: 'name', value: (r) => r.name },
      { header: 'expansion', value: (r) => r.expansion },
    ],
    { empty: "no aliases yet: `finctl alias set NAME 'COMMAND LINE'` makes one" },
  )
  return 0
}
