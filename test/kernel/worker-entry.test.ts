/**
 * src/worker-entry.ts in the tests: the setup (test/global-setup.ts) names dist/threads.json in
 * FINCTL_TEST_THREADS, and a module that is its own thread or child then starts from its chunk of
 * the bundle built from these sources, not from TypeScript through tsx; any other module from its
 * sources.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { childEntry, workerEntry } from '../../src/worker-entry.js'

const ROOT = join(import.meta.dirname, '../..')
const source = (path: string) => pathToFileURL(join(ROOT, path)).href

describe('worker-entry in the tests', () => {
  it('names the bundle of this run, and each module it lists is a source file beside its chunk', () => {
    expect(process.env.FINCTL_TEST_THREADS).toBe(join(ROOT, 'dist/threads.json'))
    const chunks = JSON.parse(readFileSync(join(ROOT, 'dist/threads.json'), 'utf8')) as Record<string, string>
    expect(Object.keys(chunks)).toEqual(
      expect.arrayContaining(['src/jobs/import/run.ts', 'src/embedded/embedded-thread.ts', 'src/domain/statements/worker.ts']),
    )
    for (const [module, chunk] of Object.entries(chunks)) {
      expect(existsSync(join(ROOT, module)), module).toBe(true)
      expect(existsSync(join(ROOT, 'dist', chunk)), chunk).toBe(true)
    }
  })

  it("a thread's module starts from its chunk, a child's too, with no loader flags", () => {
    const thread = workerEntry(source('src/jobs/import/run.ts'))
    expect(thread.protocol).toBe('file:')
    expect(fileURLToPath(thread)).toMatch(/[\\/]dist[\\/]chunks[\\/]run-[\w-]+\.cjs$/)
    const child = childEntry(source('src/domain/statements/worker.ts'))
    expect(child.file).toMatch(/[\\/]dist[\\/]chunks[\\/]worker-[\w-]+\.cjs$/)
    expect(child.execArgv).toEqual([])
  })

  it('a module the bundle does not list starts from its TypeScript through tsx', () => {
    const other = workerEntry(source('src/version.ts'))
    expect(other.protocol).toBe('data:')
    expect(decodeURIComponent(other.pathname)).toContain('api.register()')
    expect(childEntry(source('src/version.ts')).execArgv).toEqual(['--import', expect.stringMatching(/tsx/)])
  })

  it('a built module starts as it is', () => {
    const chunk = pathToFileURL(join(ROOT, 'dist/chunks/run-x.cjs')).href
    expect(workerEntry(chunk).href).toBe(chunk)
    expect(childEntry(chunk)).toEqual({ file: fileURLToPath(chunk), execArgv: [] })
  })
})
