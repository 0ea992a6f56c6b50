/** finctl imports list | show | apply | set | remap | discard | revert: each `tx import` and `statements upload` as a batch the service records. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerApply } from './apply.js'
import { registerDiscard } from './discard.js'
import { registerList } from './list.js'
import { registerRemap } from './remap.js'
import { registerSet } from './set.js'
import { registerShow } from './show.js'
import { registerRevert } from './revert.js'

export function registerImports(program: Command, run: Runner): void {
  const im = program.command('imports').description('imports and statement uploads as batches: file, options, counts, state')
  registerList(im, run)
  registerShow(im, run)
  registerApply(im, run)
  registerSet(im, run)
  registerRemap(im, run)
  registerDiscard(im, run)
  registerRevert(im, run)
}
