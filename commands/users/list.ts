/** finctl users list: the company's users, their roles, whether they are disabled. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { userColumns } from './shared.js'

export type ListOptions = Record<string, never>

export function registerList(users: Command, run: Runner, runF: RunVerb<ListOptions> = runList): void {
  users
    .command('list')
    .description("list the company's users and their roles")
    .addHelpText('after', '\nExample:\n  finctl users list --json\n')
    .action(run(runF))
}

export async function runList(host: VerbHost): Promise<number> {
  const client = await host.client()
  await printList(host.io, host.printer, await client.users.list(), userColumns, { empty: 'no users' })
  return EXIT.ok
}
