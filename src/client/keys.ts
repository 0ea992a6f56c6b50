/** The typed calls of API keys (client.ts holds them as `client.keys`; docs/api.md section 2): administration needs the JWT. */
import { apiKeysPaths } from '../api/paths.js'
import type { apiKeysApi } from '../api/routes/api-keys.js'
import type { ProposedKey } from '../domain/approvals/schemas.js'
import type { CreateApiKeyRequest, CreatedApiKey, RolledApiKey, RollApiKeyRequest } from '../domain/api-keys/schemas.js'
import { doneOf, outcome } from './approvals.js'
import { routeCalls, type Sender } from './route-call.js'

export function keyCalls(c: Sender) {
  const call = routeCalls<typeof apiKeysApi>(c, apiKeysPaths)
  /** A key, or under a key-write approval policy its proposal (with the key, shown once). */
  const requestCreate = (body: CreateApiKeyRequest) =>
    call('create', { auth: 'admin', body }).then((r) => outcome<CreatedApiKey, ProposedKey>(r))
  /** A roll, or under a key-write approval policy its proposal (with the successor's key, shown once). */
  const requestRoll = (id: string, body: RollApiKeyRequest) =>
    call('roll', { auth: 'admin', params: { id }, body }).then((r) => outcome<RolledApiKey, ProposedKey>(r))
  return {
    me: () => call('me').then((r) => r.data),
    /** The calling key's usage, or with keyId that key's (needs the JWT). */
    usage: (o: { keyId?: string; recent?: number } = {}) =>
      (o.keyId
        ? call('usage', { auth: 'admin', params: { id: o.keyId }, query: { recent: o.recent } })
        : call('myUsage', { query: { recent: o.recent } })
      ).then((r) => r.data),
    list: (status?: string) => call('list', { auth: 'admin', query: { status } }).then((r) => r.data),
    create: (body: CreateApiKeyRequest) => requestCreate(body).then(doneOf),
    requestCreate,
    revoke: (id: string) => call('revoke', { auth: 'admin', params: { id } }).then((r) => r.data),
    roll: (id: string, body: RollApiKeyRequest) => requestRoll(id, body).then(doneOf),
    requestRoll,
  }
}
