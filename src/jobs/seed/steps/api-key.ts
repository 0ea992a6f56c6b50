/**
 * `api_key` steps: an active key found again by its name. A key cannot be changed, and its value
 * is shown only when it is created: a key that existed before has no value for --env-out.
 */
import { diffKey, keyName } from '../plan.js'
import type { StepHandler } from './handler.js'

const DURATION_MS: Record<string, number> = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }

export const apiKey: StepHandler<'api_key'> = {
  async run(step, state) {
    const spec = state.spec(step)
    const base = { step: step.name, kind: step.kind }
    const name = keyName(spec)
    const key = state.world.keys.find((k) => k.name === name)
    if (key) {
      state.setResult(step, { id: key.id, name, key_prefix: key.key_prefix })
      const diff = diffKey(key, spec)
      if (diff.length) {
        return {
          ...base,
          status: state.failed,
          id: key.id,
          detail: `API key "${name}" (${key.key_prefix}…) exists with ${diff.join(', ')}: a key cannot be changed; revoke it (finctl keys revoke ${key.id}) and seed again`,
        }
      }
      state.env(step, 'id', key.id)
      state.keyWithoutValue(step, key.key_prefix)
      return {
        ...base,
        status: 'exists',
        id: key.id,
        detail: `API key "${name}" (${key.key_prefix}…): it existed before, so its value is not known`,
      }
    }
    if (state.dryRun) {
      state.setResult(step, { id: undefined, name, key_prefix: undefined })
      return { ...base, status: 'would create', detail: `API key "${name}" (${spec.scopes.join(',')})` }
    }
    let expiresAt = spec.expires_at
    if (spec.expires_in) {
      const m = /^(\d+)\s*([smhdw])$/i.exec(spec.expires_in)!
      expiresAt = new Date(state.now.getTime() + Number(m[1]) * DURATION_MS[m[2].toLowerCase()]).toISOString()
    } else if (expiresAt && /^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) expiresAt = `${expiresAt}T00:00:00Z`
    const created = await state.client.keys.create({
      name,
      scopes: [...new Set(spec.scopes)],
      description: spec.description,
      expires_at: expiresAt,
      rate_limit_per_minute: spec.rate_limit_per_minute,
      rate_limit_per_day: spec.rate_limit_per_day,
    })
    const { key: secret, ...record } = created
    state.world.keys.push(record)
    state.setResult(step, { id: created.id, name, key_prefix: created.key_prefix })
    state.env(step, 'id', created.id)
    state.env(step, 'key', secret)
    return { ...base, status: 'created', id: created.id, detail: `API key "${name}" (${created.key_prefix}…, ${created.scopes.join(',')})` }
  },
}
