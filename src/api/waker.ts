/** The waker of a long poll (domain/long-poll.ts) in a request: the process's shared change watch, the usage recorder's writes, the caller leaving, the core stopping. */
import type { Context } from 'hono'
import { ChangeWatch, type Waker } from '../domain/long-poll.js'
import type { AppDeps, AppEnv } from './env.js'

const watches = new WeakMap<AppDeps, ChangeWatch>()

export function requestWaker(deps: AppDeps, c: Context<AppEnv>): Waker {
  let watch = watches.get(deps)
  if (!watch) {
    const w = new ChangeWatch(deps.store)
    watch = w
    watches.set(deps, w)
    // This process's own records wake the waiters at once; a stopping core wakes them for good.
    deps.usage.onWrite(() => w.wakeAll())
  }
  const signal = c.req.raw.signal as AbortSignal | undefined
  const w = watch
  return {
    version: () => w.version(),
    changed: (version, ms) => (deps.usage.isReleased ? Promise.resolve() : w.changed(version, ms)),
    stopped: () => deps.usage.isReleased || Boolean(signal?.aborted),
    track: (poll) => deps.usage.track(poll),
  }
}
