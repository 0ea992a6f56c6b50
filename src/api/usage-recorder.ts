/**
 * Writes usage records (one per key-authenticated request) in batches. Readers of the request log
 * are woken after each write (`onWrite`).
 *
 * `finctl serve` (`beforeAnswer`): a request is answered only once its record is in the database,
 * the records of one turn of the event loop sharing one write: on SQLite the store gathers them into
 * the group commit that holds the turn's takes and inserts (sqlite/group-commit.ts); on PostgreSQL
 * they are gathered here, while a write is under way for the one after it. Several processes may share one
 * database, and none holds a record of a request it has answered, so a usage read counts every
 * request answered anywhere before it began without waiting on the other processes.
 *
 * The embedded core (not `beforeAnswer`): one process, records written at close (or `laterMs`
 * after they are made); `settle` flushes them.
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
      /** Each record is written before its request is answered: `record` resolves once it is. */
      beforeAnswer: boolean
      maxBuffer: number
      /**
       * Without `beforeAnswer` (the embedded core: records written at close), still write them this
       * long after they are made, so that a long-lived command's requests reach the request log
       * (`finctl logs tail`) while it runs. `settle` does not wait for it.
       */
      laterMs?: number
    } = { beforeAnswer: true, maxBuffer: 500 },
  ) {}

  /** Writes of `beforeAnswer` records not yet done: `flush` waits for them too. */
  private readonly inFlight = new Set<Promise<void>>()
  /** The write that the records made since the last one will join (`beforeAnswer`, gathered here). */
  private nextWrite: Promise<void> | undefined

  /**
   * Before a usage read: write this process's records. Every other process wrote the records of the
   * requests it answered before answering them, so there is nothing to wait for.
   */
  settle(): Promise<void> {
    return this.flush()
  }

  /**
   * Keep `row`; with `beforeAnswer`, resolves once it is in the database (rejects if that write
   * failed; the row is kept for the next write then, and written as it is then).
   */
  record(row: NewApiRequestRow): Promise<void> {
    this.buffer.push(row)
    if (this.opts.beforeAnswer && this.store.hot.recordsJoinGroups) {
      // Written at once, not behind earlier writes: the store gathers the turn's records into the
      // group commit that holds their requests' takes and inserts (sqlite/group-commit.ts).
      const rows = this.buffer
      this.buffer = []
      const written = this.write(rows)
      this.inFlight.add(written)
      void written.catch(() => {}).finally(() => this.inFlight.delete(written))
      return written
    }
    if (this.opts.beforeAnswer) {
      if (this.buffer.length >= this.opts.maxBuffer) return this.flush()
      if (!this.nextWrite) {
        // After the write under way and one turn of the event loop, so that a burst shares a write.
        const next = this.flushing
          .then(() => new Promise<void>((r) => setImmediate(r)))
          .then(() => {
            if (this.nextWrite === next) this.nextWrite = undefined
            return this.flush()
          })
        this.nextWrite = next
      }
      return this.nextWrite
    }
    if (this.buffer.length >= this.opts.maxBuffer) void this.flush().catch(() => {})
    else if (!this.timer && this.opts.laterMs) {
      this.timer = setTimeout(() => void this.flush().catch(() => {}), this.opts.laterMs)
      this.timer.unref()
    }
    return Promise.resolve()
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
    const inFlight = [...this.inFlight]
    // Chain so flushes land in order and a caller's flush waits for earlier ones too.
    this.flushing = this.flushing.then(async () => {
      await Promise.allSettled(inFlight)
      if (rows.length > 0) await this.write(rows)
    })
    const p = this.flushing
    this.flushing = p.catch(() => {})
    return p
  }

  private async write(rows: NewApiRequestRow[]): Promise<void> {
    try {
      await this.store.hot.insertApiRequests(rows)
      for (const w of [...this.waiters]) w()
    } catch (err) {
      // Keep the records for the next try rather than lose them.
      this.buffer = rows.concat(this.buffer)
      throw err
    }
  }

  get pending(): number {
    return this.buffer.length
  }
}
