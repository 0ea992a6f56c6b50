/**
 * The answer of a step the company's policy holds back: 202 and the proposal (docs/api.md,
 * "Approvals"). Apart from the approvals routes, so that a route group that may answer it does not
 * load them (and the code of every step) to describe it.
 */
import type { Context } from 'hono'
import type { Proposal, ProposedInvitation, ProposedKey } from '../domain/approvals/schemas.js'
import { envelope } from '../domain/schema-common.js'

type Described = { 'application/json': { schema: ReturnType<typeof envelope<typeof Proposal>> } }
type DescribedKey = { 'application/json': { schema: ReturnType<typeof envelope<typeof ProposedKey>> } }
type DescribedInvitation = { 'application/json': { schema: ReturnType<typeof envelope<typeof ProposedInvitation>> } }
let described: Described | undefined
let describedKey: DescribedKey | undefined
let describedInvitation: DescribedInvitation | undefined

/**
 * The proposal's schema, for the OpenAPI document alone (a 202 is not checked against it): built
 * when the document is (app.ts `loadAll`), not with each route group that may answer 202 (a share of a
 * `tx list`, docs/performance.md "Start-up guards").
 */
export async function loadProposedSchema(): Promise<void> {
  const { Proposal, ProposedInvitation, ProposedKey } = await import('../domain/approvals/schemas.js')
  described ??= { 'application/json': { schema: envelope(Proposal) } }
  describedKey ??= { 'application/json': { schema: envelope(ProposedKey) } }
  describedInvitation ??= { 'application/json': { schema: envelope(ProposedInvitation) } }
}

export const PROPOSED = {
  description: 'Accepted: the step waits for approval (a proposal)',
  get content(): Described {
    if (!described) throw new Error('the 202 answer is described once loadProposedSchema() has run (app.loadAll)')
    return described
  },
}

/** A key's creation held back: the proposal with the full key (the api-keys routes are on every `keys show`'s path). */
export const PROPOSED_KEY = {
  description: 'Accepted: the key waits for approval; its full key is shown here, once',
  get content(): DescribedKey {
    if (!describedKey) throw new Error('the 202 answer is described once loadProposedSchema() has run (app.loadAll)')
    return describedKey
  },
}

/** An invitation to a deciding role held back: the proposal with the token (the users routes are on every `whoami`'s path). */
export const PROPOSED_INVITATION = {
  description: 'Accepted: the invitation waits for approval; its token is shown here, once, and works once approved',
  get content(): DescribedInvitation {
    if (!describedInvitation) throw new Error('the 202 answer is described once loadProposedSchema() has run (app.loadAll)')
    return describedInvitation
  },
}

/**
 * A step's answer: done (`status`: 200, or 201 for a creation) with what it made, or held back by the
 * company's policy: 202 with the proposal.
 */
export function doneOrProposed<D, P, S extends 200 | 201 = 200>(c: Context, r: { done: D } | { proposal: P }, status?: S) {
  return 'done' in r
    ? c.json({ success: true as const, data: r.done }, status ?? (200 as S))
    : c.json({ success: true as const, data: r.proposal }, 202)
}
