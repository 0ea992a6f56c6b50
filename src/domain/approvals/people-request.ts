/**
 * Inviting and role changes as their routes ask for them: done at once unless a policy is on and
 * they give someone a role that can approve, which is then a `people` proposal (people-step.ts
 * applies it). An invitation's token is made now and shown to its proposer alone, as a key-write's
 * secret is; the invitation exists, and its week starts, once approved.
 */
import type { Role } from '../../kernel/roles.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import type { CreatedInvitation, InviteRequest, User } from '../users/schemas.js'
import { inviteUser, prepareInvitation, prepareRoleChange, setUserRole, toUser } from '../users/users.js'
import { decides, grantsDeciding, type PeopleRequest } from './people-step.js'
import { needsApproval, policyOf } from './policy.js'
import { peopleStep } from './registry.js'
import { propose } from './proposals.js'
import type { Proposal, ProposedInvitation } from './schemas.js'

export async function requestInvite(
  store: Store,
  actor: Actor,
  input: InviteRequest,
  now: Date,
): Promise<{ done: CreatedInvitation } | { proposal: ProposedInvitation }> {
  if (!decides(input.role) || !needsApproval(await policyOf(store.db, actor.companyId), peopleStep))
    return { done: await inviteUser(store, actor, input, now) }
  const { row, token } = await prepareInvitation(store, actor, input, now)
  // `row` (with the token's hash) is kept to apply the step; a proposal never shows it.
  const role = input.role as Role
  const request = { action: 'invite' as const, email: row.email, role }
  const effect = { action: 'invite' as const, email: row.email, role, grants: decisionsOf(role) }
  const p = await propose(store, actor, peopleStep, `invite ${row.email} as ${role}`, request, effect, now, { row })
  return { proposal: { ...p, token } }
}

export async function requestSetRole(
  store: Store,
  actor: Actor,
  ref: string,
  role: Role,
  now: Date,
): Promise<{ done: User } | { proposal: Proposal }> {
  const user = await prepareRoleChange(store, actor, ref, role)
  if (user.role === role) return { done: toUser(user) }
  if (!grantsDeciding(user.role, role) || !needsApproval(await policyOf(store.db, actor.companyId), peopleStep))
    return { done: await setUserRole(store, actor, user.id, role, now) }
  const request: PeopleRequest = { action: 'role' as const, user_id: user.id, email: user.email, role, previous_role: user.role }
  const effect = {
    action: 'role' as const,
    user: { id: user.id, email: user.email },
    role_before: user.role,
    role_after: role,
    grants: decisionsOf(role),
  }
  return { proposal: await propose(store, actor, peopleStep, `${user.email} as ${role}`, request, effect, now) }
}

/** What the role may approve, in words, for the approver to read. */
function decisionsOf(role: Role): string {
  const approves: Record<string, string> = {
    owner: 'every step: reopens, reverts, bulk changes, keys, roles and the policy',
    accountant: 'reopens, and reverts and bulk changes as a reviewer',
    bookkeeper: 'reverts and bulk changes',
  }
  return approves[role] ?? 'nothing'
}
