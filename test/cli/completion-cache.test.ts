/**
 * The completion cache (dist/completion-tree.json, written by `npm run build`): the launcher answers
 * a Tab from it without loading the program, so it must be the program's tree as it is now. A
 * command, flag or value added without rebuilding fails here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { programCompletionTree } from '../../commands/completion-tree-of-program.js'
import { completeFromTree } from '../../src/cli/completion-tree.js'
import { TREE_FILE, completeCached } from '../../src/cli/completion-cached.js'

const DIST = join(import.meta.dirname, '..', '..', 'dist')

function answer(run: (out: { write(s: string): unknown }) => number | undefined): { code: number | undefined; text: string } {
  let text = ''
  const code = run({ write: (s: string) => (text += s) })
  return { code, text }
}

describe('completion cache', () => {
  let empty = ''
  beforeAll(() => {
    empty = mkdtempSync(join(tmpdir(), 'finctl-completion-'))
  })
  afterAll(() => rmSync(empty, { recursive: true, force: true }))

  it('dist/completion-tree.json is the tree of the program as it is now (run `npm run build` after changing commands)', async () => {
    const cached = JSON.parse(readFileSync(join(DIST, TREE_FILE), 'utf8'))
    expect(cached).toEqual(JSON.parse(JSON.stringify(await programCompletionTree())))
  })

  it('answers as the program does, and leaves the answer to the program when there is no tree', async () => {
    const env = { FINCTL_CONFIG_DIR: empty }
    const live = await programCompletionTree()
    for (const words of [
      [''],
      ['tx', 'l'],
      ['keys', 'create', '--scopes', 'write,'],
      ['tx', 'list', '--json', 'id,'],
      ['tx', 'import', ''],
      ['help', ''],
      ['api', 'GET', ''],
      ['tx', 'list', '--'],
    ]) {
      const cached = answer((out) => completeCached(DIST, ['--', ...words], env, out))
      expect(cached.code).toBe(0)
      expect(cached.text).toBe(answer((out) => completeFromTree(live, ['--', ...words], env, out)).text)
    }
    expect(answer((out) => completeCached(empty, ['--', 'tx', ''], env, out))).toEqual({ code: undefined, text: '' })
  })
})
