/** finctl users list | invite | set-role | disable: the company's people (docs/people.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerDisable } from './disable.js'
import { registerInvite } from './invite.js'
import { registerList } from './list.js'
import { registerSetRole } from './set-role.js'

export function registerUsers(program: Command, run: Runner): void {
  const users = program.command('users').description("the company's people: invitations, roles, disabling")
  registerList(users, run)
  registerInvite(users, run)
  registerSetRole(users, run)
  registerDisable(users, run)
}
