/** The root of the command tree (cli/cli's pkg/cmd/root): the program of src/cli/program.ts with every command group of docs/cli.md (Commands). */
import type { IO } from '../src/cli/io.js'
import { runProgram as runWithTree } from '../src/cli/program.js'
import { COMMAND_NAMES, registerGroupOf } from './index.js'

export function runProgram(argv: string[], io: IO): Promise<number> {
  return runWithTree(argv, io, {
    names: COMMAND_NAMES,
    register: registerGroupOf,
    // Shell completion scripts call `finctl __complete WORDS` on each Tab: loaded only then.
    complete: async (program, words, out) => (await import('./completion.js')).complete(program, words, out),
  })
}
