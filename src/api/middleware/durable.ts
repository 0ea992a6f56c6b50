/**
 * A request is answered only once what it wrote is durable. On SQLite a request's take and insert
 * resolve inside the group commit's open transaction, before its COMMIT
 * (store/sqlite/group-commit.ts): the answer waits here for that COMMIT, and becomes the error if
 * the group was undone. recordUsage waits itself (its record must name the status answered) and
 * says so; this waits for the others.
 */
import type { MiddlewareHandler } from 'hono'
import type { AppDeps, AppEnv } from '../env.js'
import { onError } from '../errors.js'

export function durableAnswers(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { hot } = deps.store
    await hot.answering(async () => {
      await next()
      if (c.get('answeredDurably')) return
      try {
        await hot.durable()
      } catch (e) {
        c.res = onError(e, c, deps.store.location)
      }
    })
  }
}
