/** The waker of a long poll (domain/long-poll.ts) in a request: the usage recorder's writes, the caller leaving, the core stopping. */
import type { Context } from 'hono'
import type { Waker } from '../domain/long-poll.js'
import type { AppDeps, AppEnv } from './env.js'

export function requestWaker(deps: AppDeps, c: Context<AppEnv>): Waker {
  const signal = c.req.raw.signal as AbortSignal | undefined
  return {
    written: (ms) => deps.usage.written(ms),
    stopped: () => deps.usage.isReleased || Boolean(signal?.aborted),
  }
}
