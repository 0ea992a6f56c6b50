/**
 * The statement jobs this process is running, per store. The core waits for them before it closes
 * (jobs.ts runs them); this module is apart so that the core loads without the parsers.
 */
import type { Store } from '../../store/store.js'

const inFlight = new WeakMap<Store, Map<string, Promise<void>>>()

function jobs(store: Store): Map<string, Promise<void>> {
  let m = inFlight.get(store)
  if (!m) {
    m = new Map()
    inFlight.set(store, m)
  }
  return m
}

/** Whether this process is processing the statement now. */
export function isProcessing(store: Store, statementId: string): boolean {
  return jobs(store).has(statementId)
}

/** Keep a running job until it settles. */
export function trackStatementJob(store: Store, statementId: string, run: Promise<void>): void {
  const m = jobs(store)
  m.set(
    statementId,
    run.finally(() => m.delete(statementId)),
  )
}

/** Wait for every job in flight on this store (also those that start meanwhile). */
export async function drainStatementJobs(store: Store): Promise<void> {
  const m = jobs(store)
  while (m.size) await Promise.allSettled([...m.values()])
}
