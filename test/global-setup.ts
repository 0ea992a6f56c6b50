/** Build the CLI bundle once per test run, so the spawned `finctl` always matches the source. */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

export default function setup(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, '../scripts/build.mjs')], { stdio: 'inherit', cwd: resolve(import.meta.dirname, '..') })
}
