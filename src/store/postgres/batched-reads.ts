/**
 * Reads by one key (an API key's hash, an account and its company) of the requests made while the
 * previous read is under way, in one statement (`= ANY`, `unnest`): a round trip costs finctl a
 * socket write and a parse, as the group commit of writes (grouped-inserts.ts) saves them for inserts.
 */
export class BatchedReads<V> {
  private waiting = new Map<string, Array<{ resolve: (v: V | undefined) => void; reject: (e: unknown) => void }>>()
  private scheduled = false
  private reading = false

  constructor(
    /** The rows found for `keys`, by key; a key absent from the map has no row. */
    private readonly read: (keys: string[]) => Promise<Map<string, V>>,
  ) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(key)
      if (list) list.push({ resolve, reject })
      else this.waiting.set(key, [{ resolve, reject }])
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.scheduled || this.reading || this.waiting.size === 0) return
    this.scheduled = true
    setImmediate(() => void this.drain())
  }

  private async drain(): Promise<void> {
    this.scheduled = false
    const batch = this.waiting
    this.waiting = new Map()
    this.reading = true
    try {
      const found = await this.read([...batch.keys()])
      for (const [key, list] of batch) for (const w of list) w.resolve(found.get(key))
    } catch (error) {
      if (batch.size === 1) for (const list of batch.values()) for (const w of list) w.reject(error)
      // One key's bad value (PostgreSQL refuses a NUL in text) must not fail the others: each alone.
      else await Promise.all([...batch].map(([key, list]) => this.readAlone(key, list)))
    } finally {
      this.reading = false
      this.schedule()
    }
  }

  private async readAlone(key: string, list: Array<{ resolve: (v: V | undefined) => void; reject: (e: unknown) => void }>): Promise<void> {
    try {
      const found = await this.read([key])
      for (const w of list) w.resolve(found.get(key))
    } catch (error) {
      for (const w of list) w.reject(error)
    }
  }
}
