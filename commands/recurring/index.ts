/** finctl recurring detect | list | accept | add | delete: recurring payments (docs/forecast.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerAccept, registerDelete } from './accept.js'
import { registerAdd } from './add.js'
import { registerDetect } from './detect.js'
import { registerList } from './list.js'

export function registerRecurring(program: Command, run: Runner): void {
  const recurring = program
    .command('recurring')
    .description('recurring payments: found in the history, accepted or added by hand; the forecast counts them')
  registerDetect(recurring, run)
  registerList(recurring, run)
  registerAccept(recurring, run)
  registerAdd(recurring, run)
  registerDelete(recurring, run)
}
