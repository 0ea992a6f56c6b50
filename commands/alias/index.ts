/** finctl alias set | list | delete: short names for command lines, as gh's. */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerDelete } from './delete.js'
import { registerList } from './list.js'
import { registerSet } from './set.js'

/** `names`: finctl's commands, which no alias may hide. */
export function registerAlias(program: Command, run: Runner, names: ReadonlySet<string>): void {
  const alias = program
    .command('alias')
    .description('short names for command lines: `finctl alias set co close` makes `finctl co 2026-10` run `finctl close 2026-10`')
  registerSet(alias, run, names)
  registerList(alias, run)
  registerDelete(alias, run)
}
