/**
 * Per-key rate limits in fixed UTC windows (the calendar minute and the UTC day), counted in the
 * database with one atomic statement, so they hold under concurrency and across processes.
 * A refused request (429) does nothing and does not use up the key's allowance.
 */
import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../kernel/errors.js'
import type { AppDeps, AppEnv } from '../env.js'

const MINUTE = 60_000
const DAY = 86_400_000

export function rateLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.get('apiKey')
    if (!key) return next()
    const now = deps.now().getTime()
    const minuteWindow = Math.floor(now / MINUTE)
    const dayWindow = Math.floor(now / DAY)
    const r = await deps.store.hot.takeRateLimit({
      keyId: key.id,
      minuteWindow,
      dayWindow,
      perMinute: key.rate_limit_per_minute,
      perDay: key.rate_limit_per_day,
      // recordUsage (around this) records every keyed request, 429s too, each record in a synced
      // write: before the answer on `finctl serve`, within its flush interval or at close on the
      // embedded core. That write syncs the take with it (docs/decisions.md, "Durability").
      syncedLater: true,
      // This request answers after its writes' COMMIT (durable.ts).
      acknowledgedLater: true,
    })
    const minuteLeft = Math.max(0, key.rate_limit_per_minute - r.minuteCount)
    const dayLeft = Math.max(0, key.rate_limit_per_day - r.dayCount)
    const minuteReset = Math.ceil(((minuteWindow + 1) * MINUTE - now) / 1000)
    const dayReset = Math.ceil(((dayWindow + 1) * DAY - now) / 1000)
    const tighterIsDay = dayLeft < minuteLeft
    const headers = {
      'RateLimit-Limit': String(tighterIsDay ? key.rate_limit_per_day : key.rate_limit_per_minute),
      'RateLimit-Remaining': String(tighterIsDay ? dayLeft : minuteLeft),
      'RateLimit-Reset': String(tighterIsDay ? dayReset : minuteReset),
    }
    // Set before the handler runs, so they go out with whatever response it builds.
    for (const [k, v] of Object.entries(headers)) c.header(k, v)
    if (!r.allowed) {
      const dayExhausted = r.dayCount >= key.rate_limit_per_day
      const retryAfter = dayExhausted ? dayReset : minuteReset
      throw new AppError(
        'rate_limited',
        dayExhausted
          ? `rate limit of ${key.rate_limit_per_day} requests per day reached for this key`
          : `rate limit of ${key.rate_limit_per_minute} requests per minute reached for this key`,
        { retryAfter },
      )
    }
    await next()
  }
}
