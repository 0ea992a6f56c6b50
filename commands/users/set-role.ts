/** finctl users set-role USER --role R: change a user's role (USER: id or email). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { ROLES } from '../../src/kernel/roles.js'
import { roleFlag } from './shared.js'
import { userId } from '../../src/cli/id-kinds.js'

export interface SetRoleOptions {
  role?: string
}

export function registerSetRole(users: Command, run: Runner, runF: RunVerb<SetRoleOptions> = runSetRole): void {
  users
    .command('set-role')
    .argument('<user>', "the user's id or email")
    .description("change a user's role (never to one wider than your own)")
    .option('--role <role>', ROLES.join(', '))
    .addHelpText('after', '\nExample:\n  finctl users set-role ana@acme.test --role accountant\n')
    .action(run(runF))
}

export async function runSetRole(host: VerbHost, o: SetRoleOptions, [user]: string[]): Promise<number> {
  const role = roleFlag(o.role)
  const client = await host.client()
  const u = await client.users.setRole(await userId(client, user), role)
  await printRecord(host.io, host.printer, u)
  note(host.io, host.printer, `${u.email} is now ${u.role}`)
  return EXIT.ok
}
