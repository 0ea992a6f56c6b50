/**
 * Buffers usage records (one per key-authenticated request) and writes them in batches, so no
 * request waits on a disk write of its own. Flushed on a short timer, when the buffer fills,
 * before any usage or key read, and on shutdown: a test that makes N requests sees N. Readers of the
 * request log are woken after each write (`onWrite`).
 *
 * Several processes may share one database. `settle()` (before a usage read) flushes this
 * process's records and then waits one flush interval, by which time every other process's timer
 * has fired too, so the read counts requests answered anywhere before it began.
 */
import type { Store } from '../store/store.js'
import type { NewApiRequestRow } from '../store/schema.js'

export class UsageRecorder {
  private buffer: NewApiRequestRow[] = []
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()
  /** Long polls' wake-ups (api/waker.ts): called after a flush and by `release`. */
  private waiters = new Set<() => void>()
  private released = false
  private readonly polls = new Set<Promise<unknown>>()

  constructor(
    private readonly store: Store,
    private readonly opts: {
      intervalMs: number
      maxBuffer: number
      /**
       * With `intervalMs` 0 (the embedded core: records written at close), still write them this
       * long after they are made, so that a long-lived command's requests reach the request log
       * (`finctl logs tail`) while it runs. `settle` does not wait for it.
       */
      laterMs?: number
    } = { intervalMs: 100, maxBuffer: 500 },
  ) {}

  /** Flush, then (when records are written on a timer) wait until other processes' timers have fired. */
  async settle(): Promise<void> {
    await this.flush()
    if (this.opts.intervalMs > 0) {
      await new Promise((r) => setTimeout(r, this.opts.intervalMs + 50))
      await this.flush()
    }
  }

  record(row: NewApiRequestRow): void {
    this.buffer.push(row)
    if (this.buffer.length >= this.opts.maxBuffer) void this.flush()
    else if (!this.timer && (this.opts.intervalMs > 0 || this.opts.laterMs)) {
      this.timer = setTimeout(() => void this.flush().catch(() => {}), this.opts.intervalMs || this.opts.laterMs)
      this.timer.unref()
    }
  }

  /** Call `listener` after each write of records, and when the core stops (`release`). */
  onWrite(listener: () => void): void {
    this.waiters.add(listener)
  }

  /** A long poll in flight (api/waker.ts): `release` waits for it. */
  track(poll: Promise<unknown>): void {
    const settled: Promise<unknown> = poll.then(
      () => this.polls.delete(settled),
      () => this.polls.delete(settled),
    )
    this.polls.add(settled)
  }

  /** Wake every waiting reader, now and from now on: the core is stopping. Resolves once the long polls have answered. */
  async release(): Promise<void> {
    this.released = true
    for (const w of [...this.waiters]) w()
    await Promise.all([...this.polls])
  }

  get isReleased(): boolean {
    return this.released
  }

  /** Write everything recorded so far; resolves once it is in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    const rows = this.buffer
    this.buffer = []
    // Chain so flushes land in order and a caller's flush waits for earlier ones too.
    this.flushing = this.flushing.then(async () => {
      if (rows.length === 0) return
      try {
        await this.store.hot.insertApiRequests(rows)
        for (const w of [...this.waiters]) w()
      } catch (err) {
        // Keep the records for the next try rather than lose them.
        this.buffer = rows.concat(this.buffer)
        throw err
      }
    })
    const p = this.flushing
    this.flushing = p.catch(() => {})
    return p
  }

  get pending(): number {
    return this.buffer.length
  }
}
