/**
 * Deciding roles are guarded (docs/people.md, "Approval policies"): under any policy, inviting
 * someone to a role that can approve, or giving one to a person, is a `people` step another person
 * approves (people-request.ts proposes it). Applied here inside the approval's transaction, bound
 * to the state it was proposed on: the person's role then, the inviter's right, no such user yet.
 */
import type { z } from '@hono/zod-openapi'
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { scopesBeyond, scopesOfRole } from '../../kernel/roles.js'
import type { Db, UserInvitationRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { insertInvitation, setRoleIn } from '../users/users.js'
import type { PeopleStepEffect, PeopleStepRequest } from './step-schemas.js'
import type { StepBehaviour } from './step-types.js'

/** The scopes that approve some step (each step's own, and `close` for a reviewer): a role holding one decides. */
const DECIDING = ['write', 'close', 'users', 'api_keys'] as const

/** Whether `role` can approve a step: owner, accountant and bookkeeper can; auditor and viewer cannot. */
export const decides = (role: string) => DECIDING.some((s) => scopesOfRole(role).includes(s))

/** Whether moving from `before` to `after` gives a person a right to approve they lacked: a deciding role not within the one they have. */
export const grantsDeciding = (before: string, after: string) =>
  decides(after) && scopesBeyond(scopesOfRole(after), scopesOfRole(before)).length > 0

/** The request as stored: an invitation keeps its row (its token's hash) to apply it, never shown. */
export type PeopleRequest =
  | (Extract<z.infer<typeof PeopleStepRequest>, { action: 'invite' }> & { row?: UserInvitationRow })
  | Extract<z.infer<typeof PeopleStepRequest>, { action: 'role' }>

/** The proposer, who must still be an enabled user whose role holds `users` and the role granted. */
async function requireProposerRight(trx: Kysely<Db>, companyId: string, proposer: string | null, role: string): Promise<void> {
  const row = proposer
    ? await trx
        .selectFrom('users')
        .select(['role', 'disabled_at'])
        .where('id', '=', proposer)
        .where('company_id', '=', companyId)
        .executeTakeFirst()
    : undefined
  const held = scopesOfRole(row?.role ?? '')
  if (!row || row.disabled_at) throw new AppError('conflict', 'its proposer was disabled since')
  if (!held.includes('users') || scopesBeyond(scopesOfRole(role), held).length)
    throw new AppError('conflict', `its proposer's role (${row.role}) no longer may give the ${role} role`)
}

export async function applyPeople(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  request: PeopleRequest,
  proposer: string | null,
  now: Date,
  approval: object,
): Promise<object> {
  await requireProposerRight(trx, actor.companyId, proposer, request.role)
  if (request.action === 'invite') {
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('email', '=', request.email)
      .where('company_id', '=', actor.companyId)
      .executeTakeFirst()
    if (taken) throw new AppError('conflict', `${request.email} became a user of the company since`)
    if (!request.row) throw new AppError('conflict', 'the invitation was not kept with its proposal')
    return insertInvitation(store, trx, actor, request.row, now, approval)
  }
  let q = trx.selectFrom('users').selectAll().where('id', '=', request.user_id).where('company_id', '=', actor.companyId)
  if (store.sql.rowLocks) q = q.forUpdate()
  const user = await q.executeTakeFirst()
  if (!user) throw new AppError('not_found', `user ${request.email} is no longer in the company`)
  if (user.disabled_at) throw new AppError('conflict', `${user.email} was disabled since the role was proposed`)
  if (user.role !== request.previous_role)
    throw new AppError('conflict', `${user.email}'s role changed since it was proposed: ${request.previous_role} then, ${user.role} now`)
  return setRoleIn(store, trx, actor, user, request.role, now, approval)
}

export const people: StepBehaviour<z.infer<typeof PeopleStepRequest>, z.infer<typeof PeopleStepEffect>> = {
  async apply({ store, trx, actor, now, approval }, p) {
    const raw = await trx.selectFrom('proposals').select('request').where('id', '=', p.id).executeTakeFirstOrThrow()
    const request = JSON.parse(raw.request) as PeopleRequest
    return { result: await applyPeople(store, trx, actor, request, p.proposer_user_id, now, approval), learn: () => {} }
  },
  async approve(_store, actor, p) {
    if (p.request.action === 'role' && p.request.user_id === actor.userId)
      throw new AppError('forbidden', `proposal ${p.id} gives you a role: another person approves it`)
  },
}
