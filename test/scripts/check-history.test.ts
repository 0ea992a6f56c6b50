/** The history check of CI (scripts/check-history.mjs): bare merge subjects and node_modules refused in new commits. */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script without type declarations
import { checkHistory, isBareMerge, throughNodeModules } from '../../scripts/check-history.mjs'

const ROOT = join(import.meta.dirname, '../..')
const SCRIPT = join(ROOT, 'scripts/check-history.mjs')

let repo = ''
let base = ''
const git = (...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).trim()
const commit = (message: string) => git('commit', '-q', '--no-verify', '-m', message)
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args, repo], { encoding: 'utf8' })

/** A branch `side` merged into main with `subject`; HEAD is main after it. */
function merge(side: string, subject: string) {
  git('checkout', '-q', '-b', side)
  writeFileSync(join(repo, `${side}.txt`), side)
  git('add', `${side}.txt`)
  commit(`${side}: a file`)
  git('checkout', '-q', 'main')
  git('merge', '-q', '--no-ff', '--no-edit', '-m', subject, side)
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'finctl-history-'))
  git('init', '-q', '-b', 'main')
  git('config', 'core.symlinks', 'true')
  writeFileSync(join(repo, 'README.md'), 'a project\n')
  git('add', 'README.md')
  commit('first')
  // History before the base keeps its bare merge: it is not checked.
  merge('old', "Merge branch 'old'")
  base = git('rev-parse', 'HEAD')
})

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true })
})

describe('the history check', () => {
  it("knows git's default merge subjects, and a subject that says what it brings", () => {
    for (const s of [
      "Merge branch 'h64p'",
      "Merge branch 'main' into h85",
      "Merge remote-tracking branch 'origin/main'",
      "Merge branches 'a' and 'b'",
      "Merge branch 'x' of https://example.com/repo into main",
      "Merge commit 'abc123'",
    ])
      expect(isBareMerge(s), s).toBe(true)
    for (const s of [
      "Merge branch 'h63s': tx list --all within 2x of the floor",
      'Merge h86: agents over MCP',
      'Merge main into h86: exports',
    ])
      expect(isBareMerge(s), s).toBe(false)
    expect(throughNodeModules('../node_modules/foo')).toBe(true)
    expect(throughNodeModules('node_modules')).toBe(true)
    expect(throughNodeModules('src/node_modules_list.ts')).toBe(false)
  })

  it('passes commits since the base that say what they bring, and leaves older ones', () => {
    merge('good', 'Merge good: a file')
    expect(checkHistory(repo, base).problems).toEqual([])
    const r = run('--base', base)
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('2 commit(s) since')
  })

  it('refuses a bare merge subject since the base, naming the commit', () => {
    const before = git('rev-parse', 'HEAD')
    merge('bare', "Merge branch 'bare'")
    const r = run('--base', base)
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/"Merge branch 'bare'": a merge whose subject is git's default/)
    // Past that merge, the check passes again.
    expect(run('--base', git('rev-parse', 'HEAD')).status).toBe(0)
    git('reset', '-q', '--hard', before)
  })

  it('refuses a symlink into node_modules and a file under a node_modules folder, committed or staged', () => {
    const before = git('rev-parse', 'HEAD')
    symlinkSync('../node_modules/kysely', join(repo, 'kysely'))
    git('add', 'kysely')
    expect(checkHistory(repo, base).problems).toEqual(['staged: adds kysely, a symlink into node_modules (-> ../node_modules/kysely)'])
    commit('a link')
    mkdirSync(join(repo, 'lib/node_modules/x'), { recursive: true })
    writeFileSync(join(repo, 'lib/node_modules/x/index.js'), 'x\n')
    git('add', '-f', 'lib')
    commit('a vendored module')
    const r = run('--base', base)
    expect(r.status).toBe(1)
    const lines = r.stderr.split('\n').filter((l) => l.includes(': adds '))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/"a vendored module": adds lib\/node_modules\/x\/index\.js, a path under node_modules$/)
    expect(lines[1]).toMatch(/"a link": adds kysely, a symlink into node_modules \(-> \.\.\/node_modules\/kysely\)$/)
    git('reset', '-q', '--hard', before)
    expect(run('--base', base).status).toBe(0)
  })

  it('checks HEAD alone when the base is not in the clone, and says so', () => {
    const r = run('--base', '0123456789abcdef0123456789abcdef01234567')
    expect(r.stderr).toContain('is not in this clone')
    expect(r.stdout).toContain('1 commit(s)')
    expect(r.status).toBe(0)
  })

  it('passes on the project since its recorded base', () => {
    const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', cwd: ROOT })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })
})
