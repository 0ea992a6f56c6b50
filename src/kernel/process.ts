/** The process that does some work, as a lease records it: `host/pid`, and whether it still lives. */
import { hostname } from 'node:os'

/** This process: `host/pid`. */
export function thisWorker(): string {
  return `${hostname()}/${process.pid}`
}

/**
 * Whether the worker `host/pid` is known to be gone: a process of this host that no longer runs.
 * Another host's, or this very process (whose own bookkeeping says what it runs), is never known gone.
 */
export function workerGone(worker: string | null): boolean {
  const at = worker?.lastIndexOf('/') ?? -1
  if (!worker || at < 0 || worker.slice(0, at) !== hostname()) return false
  const pid = Number(worker.slice(at + 1))
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
