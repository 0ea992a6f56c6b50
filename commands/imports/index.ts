/** finctl imports list | show | revert: each `tx import` and `statements upload` as a batch the service records. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerList } from './list.js'
import { registerShow } from './show.js'
import { registerRevert } from './revert.js'

export function registerImports(program: Command, run: Runner): void {
  const im = program.command('imports').description('imports and statement uploads as batches: file, options, counts, state')
  registerList(im, run)
  registerShow(im, run)
  registerRevert(im, run)
}
