/**
 * The rate-limit take on PostgreSQL: one upsert, atomic per key row. The takes asked for while the
 * previous one is under way go in one statement per key and windows: it grants as many of the `n`
 * as the windows have room for, and the callers are answered in the order they asked, each as if
 * its take had run alone in that order (rate-limit-sql.ts is the one-take statement it extends).
 */
import type pg from 'pg'
import type { RateLimitInput, RateLimitResult } from '../store.js'
import { TurnQueue } from './batched-reads.js'

const minuteUsed = '(CASE WHEN $2 <= rate_limit_counters.minute_window THEN rate_limit_counters.minute_count ELSE 0 END)'
const dayUsed = '(CASE WHEN $3 <= rate_limit_counters.day_window THEN rate_limit_counters.day_count ELSE 0 END)'
// $6 takes at once: as many as both windows have room for, none once either is full.
const granted = `GREATEST(0, LEAST($6::int, $4 - ${minuteUsed}, $5 - ${dayUsed}))`
const first = 'GREATEST(0, LEAST($6::int, $4, $5))'
const TAKE_SQL = `INSERT INTO rate_limit_counters (key_id, minute_window, minute_count, day_window, day_count, allowed)
VALUES ($1, $2, ${first}, $3, ${first}, ${first})
ON CONFLICT (key_id) DO UPDATE SET
  minute_count = ${minuteUsed} + ${granted},
  minute_window = GREATEST(rate_limit_counters.minute_window, $2),
  day_count = ${dayUsed} + ${granted},
  day_window = GREATEST(rate_limit_counters.day_window, $3),
  allowed = ${granted}
RETURNING allowed, minute_count, day_count`

type Waiter = { input: RateLimitInput; resolve: (r: RateLimitResult) => void; reject: (e: unknown) => void }

export class RateLimitTakes {
  private readonly queue = new TurnQueue<Waiter>((batch) =>
    Promise.all([...batch.values()].map((waiters) => this.takeGroup(waiters[0].input, waiters))).then(() => undefined),
  )

  constructor(private readonly pool: pg.Pool) {}

  take(i: RateLimitInput): Promise<RateLimitResult> {
    return new Promise((resolve, reject) =>
      this.queue.add(`${i.keyId}\n${i.minuteWindow}\n${i.dayWindow}\n${i.perMinute}\n${i.perDay}`, { input: i, resolve, reject }),
    )
  }

  private async takeGroup(i: RateLimitInput, waiters: Waiter[]): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ allowed: number; minute_count: number; day_count: number }>(TAKE_SQL, [
        i.keyId,
        i.minuteWindow,
        i.dayWindow,
        i.perMinute,
        i.perDay,
        waiters.length,
      ])
      const row = rows[0]
      const n = Number(row.allowed)
      const [minute, day] = [Number(row.minute_count), Number(row.day_count)]
      // The k-th granted take saw the counts before the batch plus k; a refused one, the counts after.
      for (const [k, w] of waiters.entries()) {
        w.resolve(
          k < n
            ? { allowed: true, minuteCount: minute - n + k + 1, dayCount: day - n + k + 1 }
            : { allowed: false, minuteCount: minute, dayCount: day },
        )
      }
    } catch (error) {
      for (const w of waiters) w.reject(error)
    }
  }
}
