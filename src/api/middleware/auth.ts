/**
 * Resolves the caller: `X-API-Key` or a JWT in `Authorization` (with or without `Bearer `).
 * No credentials, or bad ones: 401.
 */
import type { MiddlewareHandler } from 'hono'
import { authenticateApiKey, authenticateJwt } from '../../domain/api-keys/auth.js'
import { AppError } from '../../kernel/errors.js'
import type { AppDeps, AppEnv } from '../env.js'
import { replayedAs } from '../replay.js'

export function authenticate(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // An agent's approved request, replayed in this process as its approver (replay.ts).
    const approver = replayedAs(c.req.raw)
    if (approver) {
      c.set('actor', approver)
      return next()
    }
    const key = c.req.header('x-api-key')
    const authz = c.req.header('authorization')
    if (key !== undefined) {
      const { actor, key: row } = await authenticateApiKey(deps.store, key.trim(), deps.now())
      c.set('actor', actor)
      c.set('apiKey', row)
    } else if (authz !== undefined && authz.trim() !== '') {
      c.set('actor', await authenticateJwt(deps.store, authz, deps.now()))
    } else {
      throw new AppError('unauthorized', 'no credentials: send an API key in X-API-Key or an access token in Authorization')
    }
    await next()
  }
}
