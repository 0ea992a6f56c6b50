/** finctl keys list | show | usage | create | roll | revoke: the company's API keys. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerCreate } from './create.js'
import { registerList } from './list.js'
import { registerRevoke } from './revoke.js'
import { registerRoll } from './roll.js'
import { registerShow } from './show.js'
import { registerUsage } from './usage.js'

export function registerKeys(program: Command, run: Runner): void {
  const keys = program.command('keys').description('API keys of the company')
  registerList(keys, run)
  registerShow(keys, run)
  registerUsage(keys, run)
  registerCreate(keys, run)
  registerRoll(keys, run)
  registerRevoke(keys, run)
}
