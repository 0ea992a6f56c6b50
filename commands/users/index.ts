/** finctl users list | invite | invitations | revoke-invite | set-role | disable: the company's people (docs/people.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerDisable } from './disable.js'
import { registerInvitations } from './invitations.js'
import { registerInvite } from './invite.js'
import { registerList } from './list.js'
import { registerRevokeInvite } from './revoke-invite.js'
import { registerSetRole } from './set-role.js'

export function registerUsers(program: Command, run: Runner): void {
  const users = program.command('users').description("the company's people: invitations, roles, disabling")
  registerList(users, run)
  registerInvite(users, run)
  registerInvitations(users, run)
  registerRevokeInvite(users, run)
  registerSetRole(users, run)
  registerDisable(users, run)
}
