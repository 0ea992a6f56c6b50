/**
 * Reads by one key (an API key's hash, an account and its company) of the requests made while the
 * previous read is under way, in one statement (`= ANY`, `unnest`): a round trip costs finctl a
 * socket write and a parse, as the group commit of writes (grouped-inserts.ts) saves them for inserts.
 */

type Waiter<V> = { resolve: (v: V) => void; reject: (e: unknown) => void }

/**
 * Calls gathered by key while the previous flush is under way, flushed together on the next turn of
 * the event loop; one flush at a time. A flush that throws rejects every call it held.
 */
export class TurnQueue<W extends { reject: (e: unknown) => void }> {
  private waiting = new Map<string, W[]>()
  private scheduled = false
  private flushing = false

  constructor(private readonly flush: (batch: Map<string, W[]>) => Promise<void>) {}

  add(key: string, w: W): void {
    const list = this.waiting.get(key)
    if (list) list.push(w)
    else this.waiting.set(key, [w])
    this.schedule()
  }

  private schedule(): void {
    if (this.scheduled || this.flushing || this.waiting.size === 0) return
    this.scheduled = true
    setImmediate(() => void this.drain())
  }

  private async drain(): Promise<void> {
    this.scheduled = false
    const batch = this.waiting
    this.waiting = new Map()
    this.flushing = true
    try {
      await this.flush(batch)
    } catch (error) {
      for (const list of batch.values()) for (const w of list) w.reject(error)
    } finally {
      this.flushing = false
      this.schedule()
    }
  }
}

export class BatchedReads<V> {
  private readonly queue: TurnQueue<Waiter<V | undefined>>

  constructor(
    /** The rows found for `keys`, by key; a key absent from the map has no row. */
    private readonly read: (keys: string[]) => Promise<Map<string, V>>,
  ) {
    this.queue = new TurnQueue((batch) => this.readBatch(batch))
  }

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => this.queue.add(key, { resolve, reject }))
  }

  private async readBatch(batch: Map<string, Array<Waiter<V | undefined>>>): Promise<void> {
    try {
      const found = await this.read([...batch.keys()])
      for (const [key, list] of batch) for (const w of list) w.resolve(found.get(key))
    } catch (error) {
      if (batch.size === 1) throw error
      // One key's bad value (PostgreSQL refuses a NUL in text) must not fail the others: each alone.
      await Promise.all([...batch].map(([key, list]) => this.readAlone(key, list)))
    }
  }

  private async readAlone(key: string, list: Array<Waiter<V | undefined>>): Promise<void> {
    try {
      const found = await this.read([key])
      for (const w of list) w.resolve(found.get(key))
    } catch (error) {
      for (const w of list) w.reject(error)
    }
  }
}
