/** finctl users invite --email E --role R: an invitation whose token is shown once. */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord, warn } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { AppError } from '../../src/kernel/errors.js'
import { ROLES } from '../../src/kernel/roles.js'
import { roleFlag } from './shared.js'

export interface InviteOptions {
  email?: string
  role?: string
}

export function registerInvite(users: Command, run: Runner, runF: RunVerb<InviteOptions> = runInvite): void {
  users
    .command('invite')
    .description('invite someone with a role; the invitation token is shown once (it expires after 7 days)')
    .option('--email <email>', "the invited person's email")
    .option('--role <role>', ROLES.join(', '))
    .addHelpText('after', '\nExample:\n  finctl users invite --email ana@acme.test --role bookkeeper\n')
    .action(run(runF))
}

export async function runInvite(host: VerbHost, o: InviteOptions): Promise<number> {
  if (!o.email?.trim()) throw new AppError('usage', '--email is required')
  const role = roleFlag(o.role)
  const client = await host.client()
  const inv = await client.users.invite({ email: o.email.trim(), role })
  await printRecord(host.io, host.printer, inv)
  if (inv.replaced?.length)
    note(
      host.io,
      host.printer,
      `replaces the pending ${inv.replaced.length === 1 ? 'invitation' : 'invitations'} of ${inv.email} (${inv.replaced.join(', ')}): ${inv.replaced.length === 1 ? 'its token no longer works' : 'their tokens no longer work'}`,
    )
  warn(
    host.io,
    `this is the only time the invitation token is shown: give it to ${inv.email}, who runs \`finctl login --invite TOKEN\` before ${inv.expires_at}`,
  )
  return EXIT.ok
}
