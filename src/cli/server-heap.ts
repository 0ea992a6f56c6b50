/**
 * The heap of a `finctl serve` process, set before the server's bundle is loaded, so that the
 * restart it may take loads only the launcher and this module again (docs/performance.md).
 */
import { isPostgresUrl } from '../store/open-store.js'

/**
 * V8's young generation of a server process (each semi-space, MB), by its database. On SQLite,
 * small: V8's default grows each semi-space far under a load of batches, which only raises the
 * server's peak memory. On PostgreSQL the server also writes every batch out again as COPY text,
 * and a larger one spares its collector enough to make an import faster at about the same peak
 * (the measurements: docs/performance.md).
 */
export function serverSemiSpaceMb(database: string): number {
  return isPostgresUrl(database) ? 8 : 2
}

/**
 * `finctl serve` runs with the young generation of serverSemiSpaceMb. V8 sizes it only as the process
 * starts, so the process starts itself again with the flag, by execve: the same process id, stdio and
 * signals, and nothing opened yet. Not where execve is missing (Windows), when a semi-space size is
 * given already (node's flags, NODE_OPTIONS), or when finctl's launcher is not the process's program
 * (a test calling the command in its own process).
 */
export function restartWithServerHeap(database: string, env: NodeJS.ProcessEnv = process.env): void {
  const flag = '--max-semi-space-size'
  if (process.execArgv.some((a) => a.startsWith(flag)) || env.NODE_OPTIONS?.includes(flag)) return
  if (typeof process.execve !== 'function' || process.platform === 'win32') return
  const program = process.argv[1] ?? ''
  if (!/(^|[\\/])finctl(\.cjs)?$/.test(program)) return
  process.execve(
    process.execPath,
    [process.execPath, `${flag}=${serverSemiSpaceMb(database)}`, ...process.execArgv, ...process.argv.slice(1)],
    env,
  )
}
