/**
 * The URL a worker thread loads to run the module at `selfUrl` (a module that is its own worker),
 * and the file and flags a child process runs it with. In the bundle that module is a chunk of its
 * own (it is only ever imported dynamically), loaded as is; from TypeScript sources (tests, tsx)
 * the worker or the child first registers tsx to load it, unless FINCTL_TEST_THREADS names the
 * bundle's dist/threads.json: then it loads that module's chunk of the bundle (`bundled`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export function workerEntry(selfUrl: string): URL {
  const self = new URL(selfUrl)
  if (!self.pathname.endsWith('.ts')) return self
  const chunk = bundled(self)
  if (chunk) return pathToFileURL(chunk)
  // The ESM build of tsx's API (require.resolve finds its CommonJS twin beside it).
  const tsx = pathToFileURL(
    createRequire(selfUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  const boot = `const api = await import(${JSON.stringify(tsx)}); api.register(); await import(${JSON.stringify(self.href)})`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}

/** The module at `selfUrl` as the entry of a child process (`fork(file, args, { execArgv })`). */
export function childEntry(selfUrl: string): { file: string; execArgv: string[] } {
  const file = fileURLToPath(selfUrl)
  if (!file.endsWith('.ts')) return { file, execArgv: [] }
  const chunk = bundled(new URL(selfUrl))
  if (chunk) return { file: chunk, execArgv: [] }
  return { file, execArgv: ['--import', pathToFileURL(createRequire(selfUrl).resolve('tsx')).href] }
}

/**
 * The tests' way to the same module, built: test/global-setup.ts builds dist/ from the sources and
 * sets FINCTL_TEST_THREADS to its threads.json (scripts/build.mjs: the chunk of each module that is
 * its own thread or child), and a thread then loads that chunk instead of registering tsx and
 * compiling the sources anew, as the CLI's own threads do. Without it, or for a module or chunk it
 * does not have, the sources.
 */
function bundled(self: URL): string | undefined {
  const list = process.env.FINCTL_TEST_THREADS
  if (!list || !existsSync(list)) return undefined
  const root = fileURLToPath(new URL('..', import.meta.url))
  const chunks = JSON.parse(readFileSync(list, 'utf8')) as Record<string, string>
  const name = chunks[relative(root, fileURLToPath(self)).split('\\').join('/')]
  const chunk = name && join(dirname(list), name)
  return chunk && existsSync(chunk) ? chunk : undefined
}
