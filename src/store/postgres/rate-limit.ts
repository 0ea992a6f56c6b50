/** The rate-limit take on PostgreSQL: one upsert (rate-limit-sql.ts), atomic per key row. */
import type pg from 'pg'
import { rateLimitSql } from '../rate-limit-sql.js'
import type { RateLimitInput, RateLimitResult } from '../store.js'

const RATE_SQL = rateLimitSql('GREATEST', (i) => `$${i}`)

export async function takeRateLimit(pool: pg.Pool, i: RateLimitInput): Promise<RateLimitResult> {
  const { rows } = await pool.query<{ allowed: number; minute_count: number; day_count: number }>(RATE_SQL, [
    i.keyId,
    i.minuteWindow,
    i.dayWindow,
    i.perMinute,
    i.perDay,
  ])
  const row = rows[0]
  return { allowed: Number(row.allowed) === 1, minuteCount: Number(row.minute_count), dayCount: Number(row.day_count) }
}
