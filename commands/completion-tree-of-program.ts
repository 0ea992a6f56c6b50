/**
 * The command tree of the whole program as the completion answers from it (commands/completion.ts).
 * scripts/build.mjs writes it to dist/completion-tree.json (the launcher answers a Tab from that
 * file), and test/cli/completion-cache.test.ts checks that the file is this tree.
 */
import type { TreeCommand } from '../src/cli/completion-tree.js'
import type { IO } from '../src/cli/io.js'
import { createProgram } from '../src/cli/program.js'
import { completionTree } from './completion.js'
import { registerAll } from './index.js'

export async function programCompletionTree(): Promise<TreeCommand> {
  const silent = { write: () => true }
  const program = createProgram({ stdout: silent, stderr: silent } as unknown as IO)
  await registerAll(program, () => async () => {})
  return completionTree(program)
}
