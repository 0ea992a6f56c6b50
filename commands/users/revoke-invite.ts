/** finctl users revoke-invite ID: a pending invitation can no longer be accepted (docs/people.md). */
import type { Command } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { note, printRecord } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import { invitationId } from '../../src/cli/id-kinds.js'

export type RevokeInviteOptions = Record<string, never>

export function registerRevokeInvite(users: Command, run: Runner, runF: RunVerb<RevokeInviteOptions> = runRevokeInvite): void {
  users
    .command('revoke-invite')
    .argument('<id>', "the invitation's id (finctl users invitations)")
    .description('revoke a pending invitation: its token can no longer be accepted')
    .addHelpText('after', '\nExample:\n  finctl users revoke-invite 0193…\n')
    .action(run(runF))
}

export async function runRevokeInvite(host: VerbHost, _o: RevokeInviteOptions, [id]: string[]): Promise<number> {
  const client = await host.client()
  const inv = await client.users.revokeInvite(await invitationId(client, id))
  await printRecord(host.io, host.printer, inv)
  note(host.io, host.printer, `revoked the invitation of ${inv.email} (${inv.id})`)
  return EXIT.ok
}
