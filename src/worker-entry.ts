/**
 * The URL a worker thread loads to run the module at `selfUrl` (a module that is its own worker),
 * and the file and flags a child process runs it with. In the bundle that module is a chunk of its
 * own (it is only ever imported dynamically), loaded as is; from TypeScript sources (tests, tsx)
 * the worker or the child first registers tsx to load it.
 */
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

export function workerEntry(selfUrl: string): URL {
  const self = new URL(selfUrl)
  if (!self.pathname.endsWith('.ts')) return self
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
  return { file, execArgv: ['--import', pathToFileURL(createRequire(selfUrl).resolve('tsx')).href] }
}
