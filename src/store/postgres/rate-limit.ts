/** The rate-limit take on PostgreSQL: one upsert (rate-limit-sql.ts), atomic per key row. */
import { type Kysely, sql } from 'kysely'
import { rateLimitSql } from '../rate-limit-sql.js'
import type { Db } from '../schema.js'
import type { RateLimitInput, RateLimitResult } from '../store.js'

const RATE_SQL = rateLimitSql('GREATEST', (i) => `$${i}`)

export async function takeRateLimit(db: Kysely<Db>, i: RateLimitInput): Promise<RateLimitResult> {
  const q = sql.raw(RATE_SQL).compile(db)
  const { rows } = await db.executeQuery<{ allowed: number; minute_count: number; day_count: number }>({
    ...q,
    parameters: [i.keyId, i.minuteWindow, i.dayWindow, i.perMinute, i.perDay],
  })
  const row = rows[0]
  return { allowed: Number(row.allowed) === 1, minuteCount: Number(row.minute_count), dayCount: Number(row.day_count) }
}
