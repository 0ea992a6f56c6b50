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
    .addHelpText(
      'after',
      '\nUnder an approval policy, giving a role that can approve which the user lacked is a proposal (exit 15).\n\nExample:\n  finctl users set-role ana@acme.test --role accountant\n',
    )
    .action(run(runF))
}

export async function runSetRole(host: VerbHost, o: SetRoleOptions, [user]: string[]): Promise<number> {
  const role = roleFlag(o.role)
  const client = await host.client()
  const sent = await client.users.requestSetRole(await userId(client, user), role)
  if (sent.proposal) {
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, sent.proposal)
  }
  const u = sent.done
  await printRecord(host.io, host.printer, u)
  note(host.io, host.printer, `${u.email} is now ${u.role}`)
  return EXIT.ok
}
