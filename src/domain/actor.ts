import type { Scope } from './schemas.js'

/** Who makes a request: resolved once by the auth middleware, passed to every service. */
export interface Actor {
  companyId: string
  kind: 'api_key' | 'jwt'
  /** The key's id (api_key) */
  keyId?: string
  /** The user's id (jwt), or the key's creator */
  userId?: string
  scopes: readonly Scope[]
  /** An agent's key: every write it asks for is a proposal, and it never decides one (docs/agents.md). */
  agent?: boolean
}

/** The id written as `created_by` and in audit entries. */
export function actorId(a: Actor): string {
  return a.kind === 'api_key' ? `key:${a.keyId}` : `user:${a.userId}`
}
