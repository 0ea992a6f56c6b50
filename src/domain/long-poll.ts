/**
 * Long polls (`wait=S` on GET /api-v1/logs and GET /api-v1/events): read; while nothing is found
 * and the wait is not over, sleep until something may have changed, and read again. What changed
 * is told by the waker: one shared look per process at the newest ids (`ChangeWatch`), however
 * many long polls wait, so an idle service does one cheap query per interval, not one per caller.
 */
import { newestRecordIds } from '../store/queries.js'
import type { Store } from '../store/store.js'

/** How often the shared look reads the newest ids, while someone waits. */
export const POLL_INTERVAL_MS = 250

export interface Waker {
  /** Where the data stands now (an opaque version), taken before a read. */
  version(): Promise<string>
  /** Resolves when the data may differ from `version`, after `ms` at the latest. */
  changed(version: string, ms: number): Promise<void>
  /** The caller went away or the service is stopping: answer what there is. */
  stopped(): boolean
  /** Told of each long poll, so that a stopping core waits for it before it closes the store. */
  track(poll: Promise<unknown>): void
}

type Read<T> = (previous?: T) => Promise<T>

export function longPoll<T>(waitSeconds: number, waker: Waker, read: Read<T>, found: (page: T) => boolean): Promise<T> {
  if (waitSeconds <= 0) return read()
  const poll = polling(waitSeconds, waker, read, found)
  waker.track(poll)
  return poll
}

async function polling<T>(waitSeconds: number, waker: Waker, read: Read<T>, found: (page: T) => boolean): Promise<T> {
  const deadline = Date.now() + waitSeconds * 1000
  // The version is taken before each read: a change after the read differs from it.
  let version = await waker.version()
  let page = await read()
  while (!found(page) && !waker.stopped()) {
    const left = deadline - Date.now()
    if (left <= 0) break
    await waker.changed(version, left)
    if (waker.stopped()) break
    version = await waker.version()
    page = await read(page)
  }
  return page
}

/** The newest request record and event of the database: any write of either changes it. */
async function newestIds(store: Store): Promise<string> {
  const row = await newestRecordIds(store.db)
  return `${row.r ?? 0}/${row.e ?? 0}`
}

/** One per process: a timer that runs only while someone waits, reading the newest ids for all of them. */
export class ChangeWatch {
  private readonly waiting = new Map<() => void, string>()
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly store: Store) {}

  version(): Promise<string> {
    return newestIds(this.store)
  }

  changed(version: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiting.set(done, version)
      this.schedule()
    })
  }

  /** Wake every waiter now (this process wrote records, or it is stopping). */
  wakeAll(): void {
    for (const done of [...this.waiting.keys()]) done()
  }

  private schedule(): void {
    if (this.timer || this.waiting.size === 0) return
    this.timer = setTimeout(() => void this.look(), POLL_INTERVAL_MS)
  }

  private async look(): Promise<void> {
    try {
      const now = await newestIds(this.store)
      for (const [done, seen] of [...this.waiting]) if (seen !== now) done()
    } catch {
      // A busy or closing database: every waiter reads for itself (and answers what there is).
      this.wakeAll()
    } finally {
      this.timer = undefined
      this.schedule()
    }
  }
}
