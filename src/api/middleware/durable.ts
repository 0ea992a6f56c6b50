/**
 * A request is answered only once what it wrote is durable. On SQLite a request's take and insert
 * resolve inside the group commit's open transaction, before its COMMIT
 * (store/sqlite/group-commit.ts): the answer waits here for that COMMIT, and becomes the error if
 * the group was undone. recordUsage waits itself (its record must name the status answered) and
 * says so; this waits for the others.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppDeps, AppEnv } from '../env.js'
import { onError } from '../errors.js'

export function durableAnswers(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return (c, next) =>
    deps.store.hot.answering(async () => {
      await next()
      if (!c.get('answeredDurably')) await answerOnceDurable(c, deps)
    })
}

/** Wait for the COMMIT of the request's writes; if they were undone, the answer becomes the error. */
export async function answerOnceDurable(c: Context<AppEnv>, deps: AppDeps): Promise<void> {
  try {
    await deps.store.hot.durable()
  } catch (e) {
    c.res = onError(e, c, deps.store.location)
  }
  c.set('answeredDurably', true)
}
