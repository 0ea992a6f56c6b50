/**
 * A setup file (vitest.config.ts): while a test file is collected, nothing may make a folder or a
 * file or start a server. A block that is skipped (the corpus missing, a Node line absent) runs
 * neither its beforeAll nor its afterAll, so what it made at collection would be left behind.
 * The first hook of the file's root suite ends collection; until then those calls throw.
 */
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { beforeAll } from 'vitest'

// The patches go in once per process and read the flag of the file collected now: with
// `isolate: false` (vitest.config.ts) a worker runs several files, each evaluating this module
// again, and patching each time would stack one wrapper a file.
const COLLECTING = Symbol.for('finctl.test.collecting')
const PATCHED = Symbol.for('finctl.test.collecting.patched')
const shared = globalThis as { [COLLECTING]?: { now: boolean }; [PATCHED]?: boolean }
const file = { now: true }
shared[COLLECTING] = file
beforeAll(() => {
  file.now = false
})

const fsAny = fs as unknown as Record<string, (...args: unknown[]) => unknown>
const promisesAny = fs.promises as unknown as Record<string, (...args: unknown[]) => unknown>

/** Tools' own caches (vite, tsx) are not the tests' doing. */
const outsideTests = (path: unknown) => typeof path === 'string' && path.includes('node_modules')

function guard(target: Record<string, (...args: unknown[]) => unknown>, name: string, label: string): void {
  const original = target[name]
  if (typeof original !== 'function') return
  target[name] = function (this: unknown, ...args: unknown[]) {
    if (shared[COLLECTING]?.now && !outsideTests(args[0])) {
      throw new Error(
        `${label}(${String(args[0])}) while the test file is collected: make it in a beforeAll or a test, so that a skipped block leaves nothing behind`,
      )
    }
    return original.apply(this, args)
  }
}

if (!shared[PATCHED]) {
  shared[PATCHED] = true
  for (const name of ['mkdtempSync', 'mkdirSync', 'writeFileSync', 'copyFileSync', 'mkdtemp', 'mkdir', 'writeFile', 'copyFile']) {
    guard(fsAny, name, `fs.${name}`)
  }
  for (const name of ['mkdtemp', 'mkdir', 'writeFile', 'copyFile']) guard(promisesAny, name, `fs.promises.${name}`)
  guard(net.Server.prototype as unknown as Record<string, (...args: unknown[]) => unknown>, 'listen', 'server.listen')
  syncBuiltinESMExports()
}
