#!/usr/bin/env node
// The commits new since a base say what they bring and carry nothing of node_modules: refused are
// a merge whose subject is git's bare default ("Merge branch 'x'", "Merge branch 'main' into h85",
// "Merge remote-tracking branch 'origin/x'", ...: a merge's subject says what it brings), a file
// under a node_modules folder (any component of its path), and a symlink whose target goes
// through one (a link into an install that exists on one machine only). The staged changes are
// checked too, so that the script also serves as a pre-commit hook.
//
// The base: `--base REV`, else FINCTL_HISTORY_BASE, else BASE below, the main of the day the check
// came; the bare merges before it are history and stay. In CI's clean clone the history is full
// and BASE is there; a clone without it (shallow) checks HEAD alone and says so; outside a git
// work tree (an unpacked tarball) there is nothing to check. `npm run check` runs it.
//
//   node scripts/check-history.mjs [--base REV] [REPO]
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** main when this check was added: the 30 bare merges before it are left as they are. */
export const BASE = '2c70e3907ef52b33538230ba65ae935f4070e2c4'

/** git's default merge subjects, with nothing after them. */
const BARE_MERGE =
  /^Merge (?:(?:remote-tracking )?branch(?:es)? '[^']*'(?:(?:, | and )'[^']*')*|commit '[^']*'|tag '[^']*'|pull request #\d+ from \S+)(?: of \S+)?(?: into \S+)?$/

/** Whether a merge commit's subject is git's default alone. */
export function isBareMerge(subject) {
  return BARE_MERGE.test(subject.trim())
}

/** Whether a path (of a file, or a link's target) goes through a node_modules folder. */
export function throughNodeModules(path) {
  return path.split(/[\\/]+/).includes('node_modules')
}

/**
 * The problems of one change set: `entries` as `git diff-tree --raw -z` lists them (new mode, blob,
 * status, path), `target(blob)` reading a symlink's target.
 */
export function problemsOf(where, entries, target) {
  const out = []
  for (const e of entries) {
    if (throughNodeModules(e.path)) out.push(`${where}: adds ${e.path}, a path under node_modules`)
    else if (e.mode === '120000') {
      const to = target(e.blob)
      if (throughNodeModules(to)) out.push(`${where}: adds ${e.path}, a symlink into node_modules (-> ${to})`)
    }
  }
  return out
}

/** `git diff-tree --raw -z` output → the entries added, changed or renamed (their new side). */
export function parseRaw(z) {
  const parts = z.split('\0')
  const out = []
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i]
    if (!head.startsWith(':')) continue
    const [, mode, , blob, status] = head.slice(1).split(' ')
    // A rename or copy is followed by two paths, the new one last.
    const two = status.startsWith('R') || status.startsWith('C')
    const path = two ? parts[i + 2] : parts[i + 1]
    i += two ? 2 : 1
    if (!status.startsWith('D')) out.push({ mode, blob, status, path })
  }
  return out
}

/** Every problem of the commits in `base..HEAD` of `repo`, and of its staged changes. */
export function checkHistory(repo, base) {
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const target = (blob) => git('cat-file', 'blob', blob)
  const notes = []
  let range
  try {
    git('cat-file', '-e', `${base}^{commit}`)
    range = [`${base}..HEAD`]
  } catch {
    notes.push(`base ${base} is not in this clone (a shallow one?): HEAD alone is checked`)
    range = ['-1', 'HEAD']
  }
  const problems = []
  const commits = git('rev-list', '--parents', ...range)
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' '))
  for (const [sha, ...parents] of commits) {
    const subject = git('log', '-1', '--format=%s', sha).trim()
    const where = `${sha.slice(0, 8)} ${JSON.stringify(subject)}`
    if (parents.length > 1 && isBareMerge(subject))
      problems.push(`${where}: a merge whose subject is git's default; say what it brings (git commit --amend, or git rebase -r)`)
    // Against the first parent: for a merge, what it brings to its branch.
    const raw = parents.length
      ? git('diff-tree', '-r', '--raw', '-z', '--no-abbrev', '--diff-filter=ACMRT', parents[0], sha)
      : git('diff-tree', '-r', '--raw', '-z', '--no-abbrev', '--root', '--diff-filter=ACMRT', sha)
    problems.push(...problemsOf(where, parseRaw(raw), target))
  }
  const staged = git('diff', '--cached', '--raw', '-z', '--no-abbrev', '--diff-filter=ACMRT')
  problems.push(...problemsOf('staged', parseRaw(staged), target))
  return { commits: commits.length, problems, notes }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--base')
  const base = at >= 0 ? args.splice(at, 2)[1] : process.env.FINCTL_HISTORY_BASE || BASE
  const repo = resolve(args[0] ?? resolve(import.meta.dirname, '..'))
  // Outside a work tree (an unpacked tarball) there is nothing to check; a clone git refuses to
  // read (another owner's, say) is an error, not a pass.
  const probe = spawnSync('git', ['-C', repo, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' })
  if (probe.status !== 0 || probe.stdout.trim() !== 'true') {
    if (!existsSync(join(repo, '.git'))) {
      process.stdout.write('check-history: not a git work tree, nothing to check\n')
      process.exit(0)
    }
    process.stderr.write(`check-history: git cannot read ${repo}: ${probe.stderr.trim()}\n`)
    process.exit(1)
  }
  const { commits, problems, notes } = checkHistory(repo, base)
  for (const n of notes) process.stderr.write(`check-history: ${n}\n`)
  for (const p of problems) process.stderr.write(`${p}\n`)
  if (problems.length) {
    process.stderr.write(`check-history: ${problems.length} problem(s) in ${commits} commit(s) since ${base.slice(0, 8)}\n`)
    process.exit(1)
  }
  process.stdout.write(
    `check-history: ${commits} commit(s) since ${base.slice(0, 8)}: merge subjects say what they bring, nothing of node_modules\n`,
  )
}
