/**
 * The launcher's answer to a Tab (bin/finctl.cjs): `finctl __complete WORDS...` from the command
 * tree the build wrote beside this file (dist/completion-tree.json, see commands/completion.ts),
 * without loading the program. The build bundles this module alone, as CommonJS
 * (dist/complete.cjs). Returns undefined when there is no tree to answer from: the program answers.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type TreeCommand, completeFromTree } from './completion-tree.js'

export const TREE_FILE = 'completion-tree.json'

export function completeCached(
  dir: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: { write(s: string): unknown },
): number | undefined {
  let tree: TreeCommand
  try {
    tree = JSON.parse(readFileSync(join(dir, TREE_FILE), 'utf8')) as TreeCommand
  } catch {
    return undefined
  }
  return completeFromTree(tree, argv, env, out)
}
