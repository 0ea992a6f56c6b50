/** The import's pacing: a gate that waits out the service's 429s, and a pool of requests in flight. */
import { AppError } from '../../kernel/errors.js'
import { count } from '../../kernel/words.js'

/**
 * Times in a row a batch is sent again after the database answered it was locked (503, after the
 * client's own retries): each waited up to the service's wait (FINCTL_BUSY_TIMEOUT_MS).
 */
export const BUSY_ROUNDS = 3

/** Waits longer than this stop an import unless it is told to wait (`tx import --wait`). */
export const MAX_PACING_WAIT_SECONDS = 60

/** A 429 asking for a longer wait than the import takes (a key's daily allowance spent): exit 7. */
export class LongWait extends AppError {
  /** When the service takes requests again. */
  readonly until: Date
  constructor(refusal: AppError) {
    const seconds = refusal.retryAfter ?? 0
    // Retry-After counts whole seconds: so does the time shown.
    const until = new Date(Math.floor(Date.now() / 1000 + seconds) * 1000)
    super('rate_limited', `${refusal.message}; the service takes requests again in ${duration(seconds)} (at ${isoSeconds(until)})`, {
      retryAfter: refusal.retryAfter,
      requestId: refusal.requestId,
    })
    this.until = until
  }
}

const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** 16 h 39 min; 5 min 20 s. */
function duration(seconds: number): string {
  const s = Math.ceil(seconds)
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 60)} min ${s % 60} s`
}

/** The error that stops an import for a long wait: what was done, and how to go on. */
export function longWaitStop(e: LongWait, done: { created: number; already_imported: number; on_statement: number }): AppError {
  const before = done.already_imported + done.on_statement
  return new AppError(
    'rate_limited',
    `${e.message}. Stopped after ${count(done.created, 'row')} created${before ? ` (${before} ${before === 1 ? 'was' : 'were'} there already)` : ''}; the other rows were not sent. ` +
      `Run the same command again after ${isoSeconds(e.until)} (rows already imported are skipped), or add --wait to wait until then`,
    { retryAfter: e.retryAfter, requestId: e.requestId },
  )
}

/** A gate every worker waits at while the service asks us to slow down (429) or its database is locked (503). */
export class Pacer {
  private until = 0
  constructor(
    private readonly sleep: (ms: number) => Promise<void>,
    /** A 429 asking for longer is thrown as LongWait. */
    private readonly maxWaitSeconds = MAX_PACING_WAIT_SECONDS,
  ) {}
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
        if (e instanceof AppError && e.code === 'rate_limited') {
          if ((e.retryAfter ?? 1) > this.maxWaitSeconds) throw new LongWait(e)
          this.hold(e.retryAfter)
          continue
        }
        if (e instanceof AppError && e.code === 'database_busy' && ++busy <= BUSY_ROUNDS) {
          this.hold(e.retryAfter)
          continue
        }
        throw e
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
