/** The rate-limit take on SQLite: one prepared upsert (rate-limit-sql.ts). */
import type BetterSqlite3 from 'better-sqlite3'
import { rateLimitSql } from '../rate-limit-sql.js'
import type { RateLimitInput, RateLimitResult } from '../store.js'

/** Takes one request from a key's windows; run it inside a write transaction. */
export function prepareRateLimit(raw: BetterSqlite3.Database): (i: RateLimitInput) => RateLimitResult {
  const statement = raw.prepare(rateLimitSql('max', (i) => `@p${i}`))
  return (i) => {
    const row = statement.get({ p1: i.keyId, p2: i.minuteWindow, p3: i.dayWindow, p4: i.perMinute, p5: i.perDay }) as {
      allowed: number
      minute_count: number
      day_count: number
    }
    return { allowed: row.allowed === 1, minuteCount: row.minute_count, dayCount: row.day_count }
  }
}
