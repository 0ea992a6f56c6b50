/** The import's pacing: a gate that waits out the service's 429s, and a pool of requests in flight. */
import { AppError } from '../../kernel/errors.js'

/**
 * Times in a row a batch is sent again after the database answered it was locked (503, after the
 * client's own retries): each waited up to the service's wait (FINCTL_BUSY_TIMEOUT_MS).
 */
export const BUSY_ROUNDS = 3

/** A gate every worker waits at while the service asks us to slow down (429) or its database is locked (503). */
export class Pacer {
  private until = 0
  constructor(private readonly sleep: (ms: number) => Promise<void>) {}
  async wait(): Promise<void> {
    for (let left = this.until - Date.now(); left > 0; left = this.until - Date.now()) await this.sleep(left)
  }
  hold(seconds: number | undefined): void {
    this.until = Math.max(this.until, Date.now() + Math.max(seconds ?? 1, 0.05) * 1000)
  }
  /** Retry `call` while the service answers 429, and a few times while its database is locked; any other error is thrown. */
  async call<T>(call: () => Promise<T>): Promise<T> {
    for (let busy = 0; ; ) {
      await this.wait()
      try {
        return await call()
      } catch (e) {
        const again = e instanceof AppError && (e.code === 'rate_limited' || (e.code === 'database_busy' && ++busy <= BUSY_ROUNDS))
        if (!again) throw e
        this.hold(e.retryAfter)
      }
    }
  }
}

/** Run `task` with at most `limit` in flight; `drain` waits for all. */
export class Pool {
  private readonly running = new Set<Promise<void>>()
  private failure: unknown
  constructor(private readonly limit: number) {}
  async add(task: () => Promise<void>): Promise<void> {
    if (this.failure) throw this.failure
    while (this.running.size >= this.limit) await Promise.race(this.running)
    if (this.failure) throw this.failure
    const p: Promise<void> = task()
      .catch((e: unknown) => {
        this.failure ??= e
      })
      .finally(() => this.running.delete(p))
    this.running.add(p)
  }
  /** Start `task` once there is room; `done` settles with the task. */
  async run(task: () => Promise<void>): Promise<{ done: Promise<void> }> {
    while (this.running.size >= this.limit) await Promise.race(this.running).catch(() => {})
    const p = task()
    const settled: Promise<void> = p.catch(() => {}).finally(() => this.running.delete(settled))
    this.running.add(settled)
    return { done: p }
  }
  async drain(): Promise<void> {
    await Promise.all(this.running)
    if (this.failure) throw this.failure
  }
}
