/**
 * Applying an approved key-write: the key as proposed, its hash the one whose secret the proposer
 * was shown, refused when the proposer was disabled, lost the scopes since, or the key would be
 * expired; a roll replaces the key it was proposed for, which must be as it was.
 */
import type { z } from '@hono/zod-openapi'
import { AppError } from '../../kernel/errors.js'
import { scopesBeyond, scopesOfRole } from '../../kernel/roles.js'
import type { ApiKeyRow } from '../../store/schema.js'
import { insertApiKey, rollIn } from '../api-keys/keys.js'
import type { KeyWriteStepEffect, KeyWriteStepRequest } from './step-schemas.js'
import type { StepBehaviour } from './step-types.js'

export const keyWrite: StepBehaviour<z.infer<typeof KeyWriteStepRequest>, z.infer<typeof KeyWriteStepEffect>> = {
  async apply({ store, trx, actor, now }, p) {
    // The stored request: the key's row (its secret's hash) is kept for applying, never shown.
    const raw = await trx.selectFrom('proposals').select('request').where('id', '=', p.id).executeTakeFirstOrThrow()
    const { row, rolls, grace_seconds: grace } = JSON.parse(raw.request) as { row: ApiKeyRow; rolls?: string; grace_seconds?: number }
    const scopes = JSON.parse(row.scopes) as string[]
    const proposer = await trx.selectFrom('users').select(['role', 'disabled_at']).where('id', '=', row.created_by).executeTakeFirst()
    if (!proposer || proposer.disabled_at) throw new AppError('conflict', `the proposer of key ${row.name} was disabled since`)
    const beyond = scopesBeyond(scopes, scopesOfRole(proposer.role))
    if (beyond.length) throw new AppError('conflict', `the proposer's role no longer has ${beyond.join(', ')}`)
    if (row.expires_at && row.expires_at <= now.toISOString())
      throw new AppError('conflict', `key ${row.name} expired at ${row.expires_at}`)
    const result = rolls
      ? await rollIn(store, trx, actor, row, grace ?? 0, now)
      : await insertApiKey(store, trx, actor, { ...row, created_at: now.toISOString() }, now)
    return { result, learn: () => {} }
  },
  async approve(_store, actor, p) {
    const beyond = scopesBeyond(p.effect.key.scopes, actor.scopes)
    if (beyond.length) throw new AppError('forbidden', `approving this key takes ${beyond.join(', ')}, which your role lacks`)
  },
}
