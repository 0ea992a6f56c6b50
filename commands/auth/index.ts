/** finctl login | logout | whoami: top-level commands, registered at the root in help order. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerLogin } from './login.js'
import { registerLogout } from './logout.js'
import { registerWhoami } from './whoami.js'

export function registerAuth(program: Command, run: Runner): void {
  registerLogin(program, run)
  registerLogout(program, run)
  registerWhoami(program, run)
}
