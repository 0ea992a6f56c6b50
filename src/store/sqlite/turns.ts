/**
 * Writers on one SQLite file take turns. Every write transaction begins IMMEDIATE: it takes the
 * write lock before it reads anything, so it never upgrades a read lock (in WAL mode an upgrade after
 * another process's commit fails at once with SQLITE_BUSY, whatever the busy timeout: the failures
 * seen under load). While another connection holds the lock, the attempt is repeated after a growing,
 * jittered wait, each attempt holding the thread for at most SQLite's short busy timeout, so a server
 * keeps answering meanwhile; after FINCTL_BUSY_TIMEOUT_MS (default 10 s) the write gives up with
 * `database_busy`, nothing written (a 503 with Retry-After, which the client retries).
 */
import { monotonicMs } from '../../kernel/clock.js'

/** SQLite's own busy timeout, per attempt (ms): short, because it blocks the thread. */
export const SQLITE_BUSY_TIMEOUT_MS = 20
/** The first wait between attempts, and the longest (ms). */
const FIRST_WAIT_MS = 2
const LONGEST_WAIT_MS = 100

/** How long a write waits for its turn at most (FINCTL_BUSY_TIMEOUT_MS, default 10 s). */
export function busyWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.FINCTL_BUSY_TIMEOUT_MS)
  return Number.isInteger(n) && n >= 0 ? n : 10_000
}

/** Whether a driver's error is SQLite's "database is locked" (SQLITE_BUSY and its extended codes). */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'))
}

/** What an attempt answers when the lock was not to be had and nothing was done: try again. */
export const NOT_NOW: unique symbol = Symbol('not now')

/** `work`'s answer, or NOT_NOW when SQLite answered that the file is locked (nothing done: a statement of its own). */
export function unlessLocked<T>(work: () => T): T | typeof NOT_NOW {
  try {
    return work()
  } catch (e) {
    if (isBusy(e)) return NOT_NOW
    throw e
  }
}

export class Turns {
  constructor(
    /** The longest wait for a turn (ms). */
    readonly boundMs: number,
    /** The error to throw once the bound is passed (database_busy, naming the file). */
    private readonly timedOut: (waitedMs: number) => Error,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /**
   * Run `attempt` until it answers something else than NOT_NOW, waiting longer each time (2 ms
   * doubling to 100 ms, each wait between half and one and a half of that), and no longer than the bound.
   */
  async take<T>(attempt: () => T | typeof NOT_NOW | Promise<T | typeof NOT_NOW>): Promise<T> {
    const started = monotonicMs()
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      const r = await attempt()
      if (r !== NOT_NOW) return r
      const waited = monotonicMs() - started
      if (waited >= this.boundMs) throw this.timedOut(waited)
      await this.sleep(Math.min(wait * (0.5 + Math.random()), Math.max(this.boundMs - waited, 1)))
    }
  }
}
