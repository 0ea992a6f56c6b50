/** finctl profile list | show | use | add | remove | protect | unprotect: targets and their credentials. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerAdd } from './add.js'
import { registerList } from './list.js'
import { registerProtect } from './protect.js'
import { registerRemove } from './remove.js'
import { registerShow } from './show.js'
import { registerUnprotect } from './unprotect.js'
import { registerUse } from './use.js'

export function registerProfile(program: Command, run: Runner): void {
  const profile = program.command('profile').description('targets and their credentials')
  registerList(profile, run)
  registerShow(profile, run)
  registerUse(profile, run)
  registerAdd(profile, run)
  registerRemove(profile, run)
  registerProtect(profile, run)
  registerUnprotect(profile, run)
}
