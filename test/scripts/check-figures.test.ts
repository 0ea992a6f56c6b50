/** The figure check of `npm run check` (scripts/check-figures.mjs): no comment in src/ or commands/ quotes a measurement. */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script without type declarations
import { danglingIn, figuresIn, issuesIn } from '../../scripts/check-figures.mjs'

const ROOT = join(import.meta.dirname, '../..')
const SCRIPT = join(ROOT, 'scripts/check-figures.mjs')
const run = (root?: string) => spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: 'utf8' })

/** One of the comments once moved to docs/performance.md, as it was. */
const OLD_COMMENT = [
  '/**',
  ' * is planned as the empty table it was: a file imported a second time, right after the first, looked',
  " * up its 200,000 refs, 500 at a time, by scanning the account's whole date index (45 ms a lookup)",
  ' * instead of the unique ref index (4-5 ms): 14.3 s against 6.4 s for the first import.',
  ' */',
  'export const x = 1',
  '',
].join('\n')

describe('the figure check', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it('passes on the project', () => {
    const r = run()
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('fails on a comment quoting a measurement, naming the file and the line', () => {
    const root = mkdtempSync(join(tmpdir(), 'finctl-figures-'))
    dirs.push(root)
    mkdirSync(join(root, 'src/store'), { recursive: true })
    mkdirSync(join(root, 'commands'))
    writeFileSync(join(root, 'src/store/old.ts'), OLD_COMMENT)
    writeFileSync(join(root, 'commands/ok.ts'), '// Waits 2 ms, doubling to 100 ms; a limit of 20 MiB.\nexport const y = 2\n')
    const r = run(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('src/store/old.ts:4: "4-5 ms", "14.3 s", "6.4 s"')
    expect(r.stderr).not.toContain('commands/ok.ts')
  })

  it('fails on a comment naming a file the repository does not hold, not on one it holds', () => {
    const known = { paths: new Set(['src/store/store.ts', 'docs/api.md', 'README.md']), ignored: ['bench/results/'] }
    const text = [
      '/**',
      ' * The store (store.ts, src/store/store.ts, ../store/store.ts), docs/api.md and README.md; the',
      ' * output bench/results/latest.json; code such as c.req.json and Node.js.',
      ' * But docs/importing.md and rows.ts are not there.',
      ' */',
    ].join('\n')
    expect(danglingIn('src/domain/a.ts', text, known)).toEqual([
      'src/domain/a.ts:4: names docs/importing.md, which is not in the repository',
      'src/domain/a.ts:4: names rows.ts, which is not in the repository',
    ])
    const root = mkdtempSync(join(tmpdir(), 'finctl-dangling-'))
    dirs.push(root)
    mkdirSync(join(root, 'src'))
    mkdirSync(join(root, 'bench'))
    writeFileSync(join(root, 'src/a.ts'), 'export const x = 1 // see b.ts\n')
    writeFileSync(join(root, 'src/b.ts'), 'export const y = 2\n')
    writeFileSync(join(root, 'bench/c.ts'), '// as in src/gone.ts\nexport const z = 3\n')
    const r = run(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('bench/c.ts:1: names src/gone.ts, which is not in the repository')
    expect(r.stderr).not.toContain('src/a.ts')
  })

  it('fails on a comment citing an issue number, not on an entity or a string', () => {
    expect(issuesIn('a.ts', '/**\n * Opening balances hold (#59 item 10; docs/money.md).\n */\n')).toEqual(['a.ts:2: cites issue #59'])
    expect(issuesIn('a.ts', "// a memo of '&#65;' and colour #60a5fa\nconst s = '#60'\n")).toEqual([])
    const root = mkdtempSync(join(tmpdir(), 'finctl-issues-'))
    dirs.push(root)
    mkdirSync(join(root, 'src'))
    mkdirSync(join(root, 'commands'))
    writeFileSync(join(root, 'src/a.ts'), 'export const x = 1 // since #52\n')
    const r = run(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('src/a.ts:1: cites issue #52')
  })

  it('takes a measurement for one, a setting for none', () => {
    const measured = [
      '// building took 3.4-3.5 s',
      '// nine indexes: 3.4 s -> 2.8 s',
      '// a scan (70 ms at 1M rows)',
      '// 238-239 MB against 232-233',
      '// about 0.4 µs apiece',
      '// the cache peaked at 393 MB',
      '// 0.47 s of a 1,000,000-row load',
    ]
    for (const line of measured) expect(figuresIn('a.ts', line), line).toHaveLength(1)
    const settings = [
      '// after FINCTL_BUSY_TIMEOUT_MS (default 10 s) the write gives up',
      '// waiting 2 ms doubling to 100 ms',
      '// at most 1 MiB (413), a 20 MiB file',
      '// Two-digit years: 00-69 -> 2000s, 70-99 -> 1900s',
      '// 429s waited out; retrains at 2x, 4x its size',
      "const s = '// took 5 ms against 9 ms'",
    ]
    for (const line of settings) expect(figuresIn('a.ts', line), line).toEqual([])
  })
})
