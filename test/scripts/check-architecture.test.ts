/** The map check of CI (scripts/check-architecture.mjs): every folder of src/ and commands/ is named in ARCHITECTURE.md. */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script without type declarations
import { missingFolders, names } from '../../scripts/check-architecture.mjs'

const ROOT = join(import.meta.dirname, '../..')
const SCRIPT = join(ROOT, 'scripts/check-architecture.mjs')
const made: string[] = []

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

describe('the architecture map check', () => {
  it('takes a folder named by its path, its last two names, or its own name in its parent section', () => {
    const text = [
      'The store: `src/store/store.ts` and a folder per dialect, `sqlite/` and `postgres/`.',
      'Jobs: `src/jobs/pack/build.ts`; the aggregates: `domain/accounts`.',
      'Commands: `commands/close/`.',
    ].join('\n')
    expect(names(text, 'src/store')).toBe(true)
    expect(names(text, 'src/store/sqlite')).toBe(true)
    expect(names(text, 'src/jobs/pack')).toBe(true)
    expect(names(text, 'src/domain/accounts')).toBe(true)
    expect(names(text, 'commands/close')).toBe(true)
    // A top folder needs its path: `sqlite/` does not name commands/sqlite, nor src/store/sql a store.
    expect(names(text, 'commands/sqlite')).toBe(false)
    expect(names(text, 'src/store/sql')).toBe(false)
    expect(names(text, 'commands/clos')).toBe(false)
    // A deeper path does not name a folder of the same two names elsewhere.
    expect(names('`src/jobs/export/run.ts`', 'src/domain/exports')).toBe(false)
    expect(missingFolders(text, ['src/store', 'commands/tx', 'src/jobs/pack'])).toEqual(['commands/tx'])
  })

  it('fails on a copy with a folder the map does not name, naming it, and passes once it is named', () => {
    const root = mkdtempSync(join(tmpdir(), 'finctl-arch-'))
    made.push(root)
    for (const d of ['src/store/sqlite', 'src/kernel', 'commands/tx', 'commands/payroll']) mkdirSync(join(root, d), { recursive: true })
    writeFileSync(join(root, 'ARCHITECTURE.md'), '`src/kernel/`, `src/store/` with `sqlite/`, `commands/tx/`\n')
    const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('commands/payroll/: not named in ARCHITECTURE.md')
    expect(r.stderr.split('\n').filter((l) => l.endsWith('not named in ARCHITECTURE.md'))).toHaveLength(1)
    writeFileSync(join(root, 'ARCHITECTURE.md'), '`src/kernel/`, `src/store/` with `sqlite/`, `commands/tx/`, `commands/payroll/`\n')
    expect(spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' }).status).toBe(0)
  })

  it('passes on the project: every folder of src/ and commands/ is in ARCHITECTURE.md', () => {
    const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
  })
})
