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

let collecting = true
beforeAll(() => {
  collecting = false
})

const fsAny = fs as unknown as Record<string, (...args: unknown[]) => unknown>
const promisesAny = fs.promises as unknown as Record<string, (...args: unknown[]) => unknown>

/** Tools' own caches (vite, tsx) are not the tests' doing. */
const outsideTests = (path: unknown) => typeof path === 'string' && path.includes('node_modules')

function guard(target: Record<string, (...args: unknown[]) => unknown>, name: string, label: string): void {
  const original = target[name]
  if (typeof original !== 'function') return
  target[name] = function (this: unknown, ...args: unknown[]) {
    if (collecting && !outsideTests(args[0])) {
      throw new Error(
        `${label}(${String(args[0])}) while the test file is collected: make it in a beforeAll or a test, so that a skipped block leaves nothing behind`,
      )
    }
    return original.apply(this, args)
  }
}

for (const name of ['mkdtempSync', 'mkdirSync', 'writeFileSync', 'copyFileSync', 'mkdtemp', 'mkdir', 'writeFile', 'copyFile']) {
  guard(fsAny, name, `fs.${name}`)
}
for (const name of ['mkdtemp', 'mkdir', 'writeFile', 'copyFile']) guard(promisesAny, name, `fs.promises.${name}`)
guard(net.Server.prototype as unknown as Record<string, (...args: unknown[]) => unknown>, 'listen', 'server.listen')
syncBuiltinESMExports()
