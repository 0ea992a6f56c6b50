/**
 * The setup file test/helpers/leftovers.ts, proven in a vitest run of its own
 * (test/fixtures/leftovers): a test that times out before its cleanup, with a process it started
 * that writes into the test's folder after the timeout, leaves nothing in the temporary folder.
 * Without the setup file the same run leaves the folder, and the late write lands in it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'leftovers')
const VITEST = join(import.meta.dirname, '..', '..', 'node_modules', 'vitest', 'vitest.mjs')

describe('a test that times out before its cleanup, in a vitest run of its own', () => {
  let tmp: string
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'finctl-leftovers-runs-'))
  })
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  /** The fixture's run with TMPDIR a folder of its own; `control`: without the setup file under test. */
  function run(control: boolean): { dir: string; code: number | null; output: string } {
    const dir = mkdtempSync(join(tmp, control ? 'control-' : 'run-'))
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')))
    const r = spawnSync(process.execPath, [VITEST, 'run', '--config', join(FIXTURE, 'vitest.config.ts')], {
      cwd: FIXTURE,
      env: { ...env, TMPDIR: dir, NO_COLOR: '1', ...(control ? { LEFTOVERS_CONTROL: '1' } : {}) },
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { dir, code: r.status, output: r.stdout + r.stderr }
  }

  /** Wait until `done` holds, 10 s at most. */
  async function until(done: () => boolean): Promise<void> {
    for (let i = 0; i < 100 && !done(); i++) await sleep(100)
  }

  it('leaves nothing in the temporary folder, and its late process writes nothing', async () => {
    const { dir, code, output } = run(false)
    expect(output).toContain('Test timed out in 300ms')
    expect(code).toBe(1)
    // The late process would have written a second after it started: wait past that.
    await sleep(2000)
    expect(readdirSync(dir)).toEqual([])
  })

  it('without the setup file: the folder stays, and the late process writes into it', async () => {
    const { dir, code, output } = run(true)
    expect(output).toContain('Test timed out in 300ms')
    expect(code).toBe(1)
    const [left] = readdirSync(dir)
    expect(left).toMatch(/^finctl-leftovers-/)
    await until(() => existsSync(join(dir, left, 'late', 'file')))
    expect(readdirSync(join(dir, left)).sort()).toEqual(['late', 'made'])
  })
})
