/**
 * A key's creation (or roll) as its route asks for it: made at once unless the policy holds keys with a write
 * scope back. The proposal's code (every step a policy may hold, and what applies them) is loaded only
 * then: the api-keys routes are on the path of every `keys show` and `whoami` (docs/performance.md).
 */
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { createApiKey, findApiKey, rollApiKey, writesWith } from '../api-keys/keys.js'
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../api-keys/schemas.js'
import { needsApproval, policyOf } from './policy.js'
import { keyWriteStep } from './registry.js'
import type { ProposedKey } from './schemas.js'

export async function requestKeyCreate(
  store: Store,
  actor: Actor,
  input: CreateApiKeyRequest,
  now: Date,
): Promise<{ done: CreatedApiKey } | { proposal: ProposedKey }> {
  if (!writesWith(input.scopes) || !needsApproval(await policyOf(store.db, actor.companyId), keyWriteStep))
    return { done: await createApiKey(store, actor, input, now) }
  const { proposeKeyCreate } = await import('./steps.js')
  return proposeKeyCreate(store, actor, input, now)
}

/**
 * A key's roll as its route asks for it: a successor is a new key, so rolling a key with a write
 * scope is held back by a key-write policy as creating one is; the old key is untouched until then.
 */
export async function requestKeyRoll(
  store: Store,
  actor: Actor,
  id: string,
  graceSeconds: number,
  now: Date,
): Promise<{ done: { key: CreatedApiKey; previous: ApiKey } } | { proposal: ProposedKey }> {
  const held = needsApproval(await policyOf(store.db, actor.companyId), keyWriteStep)
  if (!held || !writesWith(JSON.parse((await findApiKey(store, actor.companyId, id)).scopes) as string[]))
    return { done: await rollApiKey(store, actor, id, graceSeconds, now) }
  const { proposeKeyRoll } = await import('./steps.js')
  return proposeKeyRoll(store, actor, id, graceSeconds, now)
}
