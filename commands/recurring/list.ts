/** finctl recurring list [--suggested | --all]: the items, each with its next date due, an overdue one marked. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList, warn } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { printableLine } from '../../src/cli/terminal-text.js'
import { itemColumns } from './shared.js'

export interface ListOptions {
  suggested?: boolean
  all?: boolean
}

export function registerList(recurring: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  recurring
    .command('list')
    .description('the accepted recurring items, each with its next date due; an overdue one is marked missed')
    .option('--suggested', "the last detection's suggestions instead")
    .option('--all', 'accepted items and suggestions')
    .addHelpText('after', '\nExamples:\n  finctl recurring list\n  finctl recurring list --suggested --json\n')
    .action(run(runF))
}

export async function runList(host: VerbHost, o: ListOptions): Promise<number> {
  const client = await host.client()
  const items = await client.recurring.list({ status: o.all ? 'all' : o.suggested ? 'suggested' : 'accepted' })
  await printList(host.io, host.printer, items, itemColumns, {
    empty: o.suggested ? 'no suggestions: run `finctl recurring detect`' : 'no recurring items: `finctl recurring detect`, then accept one',
  })
  if (host.printer.format === 'table') for (const i of items) if (i.missed) warn(host.io, `missed: ${printableLine(i.missed.message)}`)
  return EXIT.ok
}
