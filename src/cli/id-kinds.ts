/**
 * Short ids of the kinds more than one command group takes (docs/cli.md "Short ids"): documents,
 * proposals, users (also by email), invitations and recurring items, each resolved by its list as
 * short-ids.ts resolves keys and rules: the whole id, or 6+ hex digits from its start or its end.
 */
import type { Client } from '../client/client.js'
import type { Document } from '../domain/documents/schemas.js'
import type { RecurringItem } from '../domain/recurring/schemas.js'
import { resolveListedId } from './short-ids.js'
import { printableLine } from './terminal-text.js'

/** The full id of the document `text` names. */
export function documentId(client: Client, text: string, flag = 'ID'): Promise<string> {
  return resolveListedId(
    'document',
    text,
    async () => {
      const all: Document[] = []
      for await (const page of client.documents.pages({ limit: 1000 })) all.push(...page.data)
      return all
    },
    (d) => `${d.id}  ${d.kind}  ${d.file_name}`,
    flag,
  )
}

/** The full id of the proposal `text` names, among every proposal (any state). */
export function proposalId(client: Client, text: string): Promise<string> {
  return resolveListedId(
    'proposal',
    text,
    () => client.approvals.list({ state: 'all' }),
    (p) => `${p.id}  ${p.kind}  ${p.state}`,
  )
}

/** The user `text` names: an email is the service's to find; an id whole or by 6+ hex digits. */
export function userId(client: Client, text: string, flag = 'USER'): Promise<string> {
  if (text.includes('@')) return Promise.resolve(text)
  return resolveListedId(
    'user',
    text,
    () => client.users.list(),
    (u) => `${u.id}  ${u.email}  ${u.role}`,
    flag,
  )
}

/** The full id of the invitation `text` names, among every invitation (accepted, revoked and expired too). */
export function invitationId(client: Client, text: string): Promise<string> {
  return resolveListedId(
    'invitation',
    text,
    () => client.users.invitations({ all: true }),
    (i) => `${i.id}  ${i.email}  ${i.role}`,
  )
}

/** The full id of the recurring item `text` names, among suggestions and accepted items (or `items`). */
export function recurringItemId(client: Client, text: string, flag = 'ID', items?: RecurringItem[]): Promise<string> {
  return resolveListedId(
    'recurring item',
    text,
    async () => items ?? (await client.recurring.list({ status: 'all' })),
    (i) => `${i.id}  ${printableLine(i.name)}  ${i.interval}  ${i.status}`,
    flag,
  )
}
