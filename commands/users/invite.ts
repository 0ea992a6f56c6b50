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
    .addHelpText(
      'after',
      '\nUnder an approval policy, inviting to a role that can approve (owner, accountant, bookkeeper) is a\nproposal (exit 15): the token is shown now and can be accepted once another person approves.\n\nExample:\n  finctl users invite --email ana@acme.test --role bookkeeper\n',
    )
    .action(run(runF))
}

export async function runInvite(host: VerbHost, o: InviteOptions): Promise<number> {
  if (!o.email?.trim()) throw new AppError('usage', '--email is required')
  const role = roleFlag(o.role)
  const client = await host.client()
  const sent = await client.users.requestInvite({ email: o.email.trim(), role })
  if (sent.proposal) {
    // Under an approval policy, a role that can approve: the token is shown now, to the proposer alone.
    await printRecord(host.io, host.printer, sent.proposal)
    warn(
      host.io,
      `this is the only time the invitation token is shown: give it to ${o.email.trim()} once another person approves the invitation (finctl approvals show ${sent.proposal.id}); it works from then, for 7 days`,
    )
    const { printProposed } = await import('../approvals/shared.js')
    return printProposed(host, sent.proposal, false)
  }
  const inv = sent.done
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
