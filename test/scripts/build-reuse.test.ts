/**
 * The tests' setup builds the CLI with `--if-changed`: a bundle built from the same inputs is kept
 * (a run saves the build), one built from other inputs is built again.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const build = () => spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-changed'], { cwd: ROOT, encoding: 'utf8' })

describe('the build, reused', () => {
  it('keeps dist/ when its inputs are those it was built from', () => {
    const stamp = join(ROOT, 'dist/build-inputs.sha256')
    expect(readFileSync(stamp, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    const before = statSync(join(ROOT, 'dist/cli.cjs')).mtimeMs
    const r = build()
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('dist/ is current')
    expect(statSync(join(ROOT, 'dist/cli.cjs')).mtimeMs).toBe(before)
  })
})
