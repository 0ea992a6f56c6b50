/**
 * Who did it, as a table says it: a person by their email (`user:<id>`), a key by its name and
 * its creator's email (`key:<id>`). The API keeps the ids (and --json prints them); a table of
 * proposals or import batches is read by people, who know each other by name (docs/people.md).
 */
import type { Client } from '../client/client.js'
import type { Printer } from './output.js'

export type ActorName = (id: string | null | undefined) => string

/**
 * The name of each actor id, read once from the company's users and keys; an id it cannot name
 * (a credential without the read scope, a user since deleted) stays as it is. JSON output keeps
 * the ids, so nothing is read for it. `ids` (when known before printing) skips the reads when no
 * row names a person or a key.
 */
export async function actorNames(client: Client, printer: Printer, ids?: Iterable<string | null | undefined>): Promise<ActorName> {
  const same: ActorName = (id) => id ?? ''
  if (printer.format !== 'table' && printer.format !== 'csv') return same
  const wanted = ids ? [...ids].filter((x): x is string => typeof x === 'string') : undefined
  const needUsers = wanted ? wanted.some((x) => x.startsWith('user:')) : true
  const needKeys = wanted ? wanted.some((x) => x.startsWith('key:')) : true
  if (!needUsers && !needKeys) return same
  const [users, keys] = await Promise.all([
    needUsers || needKeys ? client.users.list().catch(() => []) : [],
    needKeys ? client.keys.list().catch(() => []) : [],
  ])
  const email = new Map(users.map((u) => [`user:${u.id}`, u.email]))
  const names = new Map<string, string>(email)
  for (const k of keys) {
    // init's key names its owner by the bare id; a key made by a login, as `user:<id>`.
    const creator = email.get(k.created_by) ?? email.get(`user:${k.created_by}`)
    // An agent's key is named as the agent it is (docs/agents.md).
    const what = k.agent ? 'agent' : 'key'
    names.set(`key:${k.id}`, creator ? `${creator} (${what} ${k.name})` : `${what} ${k.name}`)
  }
  return (id) => (id ? (names.get(id) ?? id) : '')
}
