/**
 * Long polls (`wait=S` on GET /api-v1/logs and GET /api-v1/events): read; while nothing is found
 * and the wait is not over, sleep until the waker says this process wrote something or a short
 * interval passes (what other processes sharing the database wrote is seen by reading again), and
 * read again. No work between reads: an idle long poll costs one indexed read per interval.
 */

/** How often a long poll reads the database again for what other processes wrote. */
export const POLL_INTERVAL_MS = 250

export interface Waker {
  /** Resolves when this process may have written something, after `ms` at the latest. */
  written(ms: number): Promise<void>
  /** The caller went away or the service is stopping: answer what there is. */
  stopped(): boolean
}

export async function longPoll<T>(
  waitSeconds: number,
  waker: Waker,
  read: (previous?: T) => Promise<T>,
  found: (page: T) => boolean,
  intervalMs = POLL_INTERVAL_MS,
): Promise<T> {
  const deadline = Date.now() + waitSeconds * 1000
  let page = await read()
  while (!found(page) && !waker.stopped()) {
    const left = deadline - Date.now()
    if (left <= 0) break
    await waker.written(Math.min(left, intervalMs))
    if (waker.stopped()) break
    page = await read(page)
  }
  return page
}
