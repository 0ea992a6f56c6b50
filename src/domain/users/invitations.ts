/**
 * Invitations as an owner sees them (docs/people.md, "Invitations"): the pending ones with their
 * expiry (never a token: only its hash is kept), and revoking one so that it can no longer be
 * accepted. Revoking and accepting are conditional updates, so of the two at once one wins.
 */
import type { Kysely, Selectable } from 'kysely'
import { AppError, notFound } from '../../kernel/errors.js'
import type { Db, UserInvitationsTable } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import type { InvitationStatus } from './schemas.js'

type Row = Selectable<UserInvitationsTable>

export function invitationState(r: Row, now: Date): InvitationStatus['state'] {
  if (r.accepted_at) return 'accepted'
  if (r.revoked_at) return 'revoked'
  return r.expires_at <= now.toISOString() ? 'expired' : 'pending'
}

export function toInvitationStatus(r: Row, now: Date): InvitationStatus {
  const { id, email, role, invited_by, created_at, expires_at, accepted_at, user_id, revoked_at, revoked_by } = r
  return {
    id,
    email,
    role,
    invited_by,
    created_at,
    expires_at,
    state: invitationState(r, now),
    accepted_at,
    user_id,
    revoked_at,
    revoked_by,
  }
}

/** Revoking takes what inviting takes: a login with `users`. */
function requireManager(actor: Actor): void {
  if (actor.kind !== 'jwt') throw new AppError('forbidden', 'managing people takes a login (finctl login), not an API key')
  if (!actor.scopes.includes('users')) throw new AppError('forbidden', 'managing people takes the users scope (the owner role has it)')
}

/** Read as the users are: with `read` (an auditor too) or `users`; the middleware checks the scope. */
export async function listInvitations(store: Store, actor: Actor, all: boolean, now: Date): Promise<InvitationStatus[]> {
  let q = store.db.selectFrom('user_invitations').selectAll().where('company_id', '=', actor.companyId)
  if (!all) q = q.where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now.toISOString())
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1000).execute()
  return rows.map((r) => toInvitationStatus(r, now))
}

export async function revokeInvitation(store: Store, actor: Actor, id: string, now: Date): Promise<InvitationStatus> {
  requireManager(actor)
  const find = () =>
    store.db.selectFrom('user_invitations').selectAll().where('company_id', '=', actor.companyId).where('id', '=', id).executeTakeFirst()
  const row = await find()
  if (!row) throw notFound('invitation')
  const refuse = (r: Row) => {
    const state = invitationState(r, now)
    const when = state === 'accepted' ? r.accepted_at : state === 'revoked' ? r.revoked_at : r.expires_at
    return new AppError('conflict', `invitation ${r.id} (${r.email}) was ${state} already, at ${when}: nothing to revoke`)
  }
  if (invitationState(row, now) !== 'pending') throw refuse(row)
  const revoked = await store.writeTransaction(async (trx) => {
    const r = await trx
      .updateTable('user_invitations')
      .set({ revoked_at: now.toISOString(), revoked_by: actorId(actor) })
      .where('id', '=', row.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) return null
    const after = toInvitationStatus({ ...row, revoked_at: now.toISOString(), revoked_by: actorId(actor) }, now)
    await recordEvents(store, trx, [eventRow(actor, 'user.invitation_revoked', row.id, after, now)])
    return after
  })
  if (!revoked) throw refuse((await find()) ?? row)
  return revoked
}

/**
 * A new invitation for an email replaces the pending ones for it: their tokens stop (revoked, each
 * with its event), so one email never holds two live tokens. Runs in the new invitation's write.
 */
export async function replacePending(store: Store, trx: Kysely<Db>, actor: Actor, email: string, now: Date): Promise<string[]> {
  const ts = now.toISOString()
  const pending = await trx
    .selectFrom('user_invitations')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ts)
    .execute()
  if (!pending.length) return []
  await trx
    .updateTable('user_invitations')
    .set({ revoked_at: ts, revoked_by: actorId(actor) })
    .where(
      'id',
      'in',
      pending.map((r) => r.id),
    )
    .where('revoked_at', 'is', null)
    .execute()
  await recordEvents(
    store,
    trx,
    pending.map((r) =>
      eventRow(actor, 'user.invitation_revoked', r.id, toInvitationStatus({ ...r, revoked_at: ts, revoked_by: actorId(actor) }, now), now),
    ),
  )
  return pending.map((r) => r.id)
}
