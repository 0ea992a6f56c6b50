/**
 * `npm run link`: a `finctl` on the PATH that runs the clone's build on the clone's
 * Node.js, whatever `node` comes first on the PATH; only its own file is ever replaced or removed.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/harness.js'

const SCRIPT = join(ROOT, 'scripts', 'link.mjs')
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string

describe.skipIf(process.platform === 'win32')('npm run link', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-link-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const link = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, '--dir', join(dir, 'bin'), ...args], { encoding: 'utf8' })

  it('writes an executable finctl that runs the clone on its own Node.js, with no node on the PATH', () => {
    const r = link()
    expect(r.status, r.stderr).toBe(0)
    const file = join(dir, 'bin', 'finctl')
    expect(statSync(file).mode & 0o777).toBe(0o755)
    expect(r.stderr).toContain('is not on your PATH')
    // A PATH without any node: the link names its Node.js itself.
    const v = spawnSync(file, ['--version'], { encoding: 'utf8', env: { PATH: '/nonexistent' } })
    expect(v.status, v.stderr).toBe(0)
    expect(v.stdout).toBe(`${VERSION}\n`)
    const help = spawnSync(file, ['accounts', '--help'], { encoding: 'utf8', env: { PATH: '/nonexistent', HOME: dir } })
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain('Usage: finctl accounts')
    // Linking again replaces its own file.
    expect(link().status).toBe(0)
  })

  it('never replaces nor removes a finctl it did not write', () => {
    const file = join(dir, 'bin', 'finctl')
    expect(link().status).toBe(0)
    writeFileSync(file, '#!/bin/sh\necho another finctl\n')
    const again = link()
    expect(again.status).toBe(1)
    expect(again.stderr).toContain('was not written by npm run link')
    const removed = link('--remove')
    expect(removed.status).toBe(1)
    expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho another finctl\n')
  })

  it('--remove takes its own link away', () => {
    expect(link().status).toBe(0)
    const r = link('--remove')
    expect(r.status, r.stderr).toBe(0)
    expect(() => statSync(join(dir, 'bin', 'finctl'))).toThrow()
  })
})
