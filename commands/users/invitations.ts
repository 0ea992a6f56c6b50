/** finctl users invitations [--all]: the pending invitations and their expiry, never a token (docs/people.md). */
import type { Command } from 'commander'
import { type ActorName, actorNames } from '../../src/cli/actor-names.js'
import { idColumn } from '../../src/cli/columns.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { type Column, printList } from '../../src/cli/output.js'
import type { RunVerb, Runner, VerbHost } from '../../src/cli/runner.js'
import type { InvitationStatus } from '../../src/domain/users/schemas.js'

export interface InvitationsOptions {
  all?: boolean
}

/** The inviter by email in a table (the API gives the user's bare id, which --json keeps). */
const inviter = (name: ActorName, id: string) => {
  const n = name(`user:${id}`)
  return n === `user:${id}` ? id : n
}

const columns = (name: ActorName): Column<InvitationStatus>[] => [
  idColumn((i) => i.id),
  { header: 'email', value: (i) => i.email },
  { header: 'role', value: (i) => i.role },
  { header: 'state', value: (i) => i.state },
  { header: 'expires', value: (i) => i.expires_at.slice(0, 16).replace('T', ' ') },
  { header: 'invited by', value: (i) => inviter(name, i.invited_by), drop: 2 },
]

export function registerInvitations(users: Command, run: Runner, runF: RunVerb<InvitationsOptions> = runInvitations): void {
  users
    .command('invitations')
    .description('list the pending invitations and their expiry (never a token)')
    .option('--all', 'accepted, revoked and expired ones too')
    .addHelpText('after', '\nExample:\n  finctl users invitations --all --json\n')
    .action(run(runF))
}

export async function runInvitations(host: VerbHost, o: InvitationsOptions): Promise<number> {
  const client = await host.client()
  const list = await client.users.invitations({ all: o.all === true })
  const name = await actorNames(
    client,
    host.printer,
    list.map((i) => `user:${i.invited_by}`),
  )
  await printList(host.io, host.printer, list, columns(name), { empty: o.all ? 'no invitations' : 'no pending invitations' })
  return EXIT.ok
}
