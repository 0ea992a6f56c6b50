/**
 * SQLite's group commit: writes issued in the same turn of the event loop (concurrent requests on
 * `finctl serve`) share one transaction, each in its own savepoint, so one failing write does not
 * undo another. Every caller is answered only after the shared COMMIT: nothing is acknowledged
 * before it is durable.
 */
export interface GroupCommitSteps {
  /** Run the group in a write transaction of its own; `unsynced`: its COMMIT without an fsync. */
  inWriteTurn<T>(work: () => T, o: { unsynced?: boolean }): Promise<T>
  /** One write inside the group's transaction (a savepoint). */
  savepoint<T>(work: () => T): T
  /** False once SQLite has ended the whole transaction (a full disk). */
  inTransaction(): boolean
  translate(error: unknown): unknown
}

interface Op {
  work: () => unknown
  synced: boolean
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}

export class GroupCommit {
  private queue: Op[] = []
  private scheduled = false

  constructor(private readonly steps: GroupCommitSteps) {}

  /** `synced: false`: a later synced write of this process covers it (RateLimitInput.syncedLater). */
  run<T>(work: () => T, synced = true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, synced, resolve: resolve as (v: unknown) => void, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => void this.drain())
      }
    })
  }

  private async drain(): Promise<void> {
    this.scheduled = false
    const batch = this.queue
    this.queue = []
    const { steps } = this
    let outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }>
    try {
      outcomes = await steps.inWriteTurn(
        () =>
          batch.map((op) => {
            try {
              return { ok: true as const, value: steps.savepoint(op.work) }
            } catch (error) {
              // SQLite ended the whole transaction (a full disk): every write of it is undone, so none may be answered as done.
              if (!steps.inTransaction()) throw error
              return { ok: false as const, error: steps.translate(error) }
            }
          }),
        { unsynced: batch.every((op) => !op.synced) },
      )
    } catch (error) {
      for (const op of batch) op.reject(error)
      return
    }
    batch.forEach((op, i) => {
      const o = outcomes[i]
      if (o.ok) op.resolve(o.value)
      else op.reject(o.error)
    })
  }
}
