/**
 * People of a company (docs/people.md): invitations (a token shown once, stored as its SHA-256),
 * accepting one (a new user, logged in), roles and disabling. Managing people takes a login with
 * the `users` scope, and nobody hands out a role wider than their own.
 */
import { randomUUID } from 'node:crypto'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { type Role, scopesBeyond, scopesOfRole } from '../../kernel/roles.js'
import type { Kysely } from 'kysely'
import type { Db, UserInvitationRow, UserRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { signSession } from '../api-keys/auth.js'
import { generateApiKey, hashApiKey, hashPassword, verifyPassword } from '../api-keys/secrets.js'
import { eventRow, recordEvents } from '../events.js'
import { replacePending } from './invitations.js'
import type { CreatedInvitation, Invitation, InviteRequest, User, Whoami } from './schemas.js'

/** How long an invitation may be accepted: a week, then the owner invites again. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60
const TOKEN_PATTERN = /^fdi_[0-9A-Za-z]{43}$/

export function toUser(row: Pick<UserRow, 'id' | 'email' | 'role' | 'created_at' | 'disabled_at'>): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    scopes: [...scopesOfRole(row.role)],
    created_at: row.created_at,
    disabled_at: row.disabled_at,
  }
}

function toInvitation(row: UserInvitationRow): Invitation {
  const { id, email, role, invited_by, created_at, expires_at } = row
  return { id, email, role, invited_by, created_at, expires_at }
}

/** Inviting, changing roles and disabling take a login with `users` (the owner's role has it). */
function requireManager(actor: Actor): void {
  if (actor.kind !== 'jwt') throw new AppError('forbidden', 'managing people takes a login (finctl login), not an API key')
  if (!actor.scopes.includes('users')) throw new AppError('forbidden', 'managing people takes the users scope (the owner role has it)')
}

/** Refuse a role wider than the actor's own: `what` says what was being done. */
function requireNoWider(actor: Actor, role: string, what: string): void {
  const beyond = scopesBeyond(scopesOfRole(role), actor.scopes)
  if (beyond.length > 0)
    throw new AppError('forbidden', `${what}: the ${role} role has ${beyond.join(', ')}, which your own role lacks`, {
      details: [{ path: 'role', message: `is wider than your own role (${beyond.join(', ')})` }],
    })
}

export async function whoami(store: Store, actor: Actor): Promise<Whoami> {
  const row = actor.userId
    ? await store.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', actor.userId)
        .where('company_id', '=', actor.companyId)
        .executeTakeFirst()
    : undefined
  return { credential: actor.kind === 'jwt' ? 'access_token' : 'api_key', user: row ? toUser(row) : null, scopes: [...actor.scopes] }
}

export async function listUsers(store: Store, companyId: string): Promise<User[]> {
  const rows = await store.db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(toUser)
}

/** A user of the actor's company by id or email. */
export async function findUser(store: Store, companyId: string, ref: string): Promise<UserRow> {
  const q = store.db.selectFrom('users').selectAll().where('company_id', '=', companyId)
  const row = await (ref.includes('@') ? q.where('email', '=', ref.trim().toLowerCase()) : q.where('id', '=', ref)).executeTakeFirst()
  if (!row) throw notFound('user')
  return row
}

export async function inviteUser(store: Store, actor: Actor, input: InviteRequest, now: Date): Promise<CreatedInvitation> {
  const { row, token } = await prepareInvitation(store, actor, input, now)
  const shown = await store.writeTransaction((trx) => insertInvitation(store, trx, actor, row, now))
  return { ...shown, token }
}

/** The invitation's row and token, checked (a login with users, no role wider than the actor's, no user of the company) but not stored. */
export async function prepareInvitation(
  store: Store,
  actor: Actor,
  input: InviteRequest,
  now: Date,
): Promise<{ row: UserInvitationRow; token: string }> {
  requireManager(actor)
  requireNoWider(actor, input.role, 'you cannot invite someone to a role wider than your own')
  // Another company's user is answered as an unknown email: a company never learns who uses the service.
  const taken = await store.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', input.email)
    .where('company_id', '=', actor.companyId)
    .executeTakeFirst()
  if (taken) throw new AppError('conflict', `a user with the email ${input.email} already exists`)
  const token = `fdi_${generateApiKey().slice(4)}`
  const row: UserInvitationRow = {
    id: randomUUID(),
    company_id: actor.companyId,
    email: input.email,
    role: input.role,
    token_hash: hashApiKey(token),
    invited_by: actor.userId ?? '',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000).toISOString(),
    accepted_at: null,
    user_id: null,
    revoked_at: null,
    revoked_by: null,
  }
  return { row, token }
}

/**
 * Store a prepared invitation inside the caller's write transaction, its week counted from `now`
 * (an approved one's from its approval); `approval` names the proposal in its event.
 */
export async function insertInvitation(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  prepared: UserInvitationRow,
  now: Date,
  approval?: object,
): Promise<Invitation & { replaced: string[] }> {
  const row = {
    ...prepared,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000).toISOString(),
  }
  const shown = toInvitation(row)
  // A new invitation for the email replaces its pending ones (invitations.ts).
  const replaced = await replacePending(store, trx, actor, row.email, now)
  await trx.insertInto('user_invitations').values(row).execute()
  // The event carries the invitation, never its token (docs/people.md).
  await recordEvents(store, trx, [eventRow(actor, 'user.invited', row.id, approval ? { ...shown, approval } : shown, now)])
  return { ...shown, replaced }
}

const spent = () => new AppError('unauthorized', 'this invitation is not valid (unknown, already accepted, or mistyped): ask for a new one')

/** Accept an invitation: the new user, with the invited role, logged in. */
export async function acceptInvitation(store: Store, token: string, password: string, now: Date) {
  if (!TOKEN_PATTERN.test(token)) throw spent()
  if (password.length < 8) throw validation('password', 'must be at least 8 characters')
  const inv = await store.db.selectFrom('user_invitations').selectAll().where('token_hash', '=', hashApiKey(token)).executeTakeFirst()
  if (!inv || inv.accepted_at) throw spent()
  if (inv.revoked_at) throw new AppError('unauthorized', `this invitation was revoked at ${inv.revoked_at}: ask for a new one`)
  if (inv.expires_at <= now.toISOString())
    throw new AppError('unauthorized', `this invitation expired at ${inv.expires_at}: ask for a new one`)
  // Another company's user: said only to whoever knows that user's password; the token's holder learns nothing.
  const other = await store.db
    .selectFrom('users')
    .select(['company_id', 'password_hash'])
    .where('email', '=', inv.email)
    .where('company_id', '!=', inv.company_id)
    .executeTakeFirst()
  if (other && (await verifyPassword(password, other.password_hash)))
    throw new AppError('conflict', `${inv.email} is a user of another company already: one email is one user of one company`)
  if (other) throw spent()
  const user: UserRow = {
    id: randomUUID(),
    company_id: inv.company_id,
    email: inv.email,
    password_hash: await hashPassword(password),
    role: inv.role,
    created_at: now.toISOString(),
    disabled_at: null,
  }
  await store.writeTransaction(async (trx) => {
    await requireInviterNow(trx, inv)
    const taken = await trx.selectFrom('users').select('company_id').where('email', '=', inv.email).executeTakeFirst()
    if (taken?.company_id === inv.company_id)
      throw new AppError('conflict', `a user with the email ${inv.email} already exists: log in with it`)
    if (taken) throw spent()
    // Accepted once, even if two accept (or one accepts and an owner revokes) at the same moment.
    const marked = await trx
      .updateTable('user_invitations')
      .set({ accepted_at: now.toISOString(), user_id: user.id })
      .where('id', '=', inv.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(marked.numUpdatedRows) !== 1) throw spent()
    await trx.insertInto('users').values(user).execute()
    await recordEvents(store, trx, [eventRow(`user:${user.id}`, 'user.joined', user.id, toUser(user), now, inv.company_id)])
  })
  return { ...(await signSession(store, user, now)), user: toUser(user) }
}

/**
 * An invitation stands on its inviter's right as it is when accepted: the inviter disabled, or their
 * role no longer holding `users` and the invited role's scopes, and it is void (docs/people.md).
 */
async function requireInviterNow(trx: Kysely<Db>, inv: UserInvitationRow): Promise<void> {
  const inviter = await trx
    .selectFrom('users')
    .select(['role', 'disabled_at'])
    .where('id', '=', inv.invited_by)
    .where('company_id', '=', inv.company_id)
    .executeTakeFirst()
  const held = scopesOfRole(inviter?.role ?? '')
  const why = !inviter
    ? 'the person who made it is no longer in the company'
    : inviter.disabled_at
      ? 'the person who made it was disabled'
      : !held.includes('users') || scopesBeyond(scopesOfRole(inv.role), held).length > 0
        ? `the person who made it may no longer invite to the ${inv.role} role`
        : null
  if (why) throw new AppError('unauthorized', `this invitation is void: ${why}. Ask for a new one`)
}

/**
 * Inside the change's transaction: refuse it when `row` is the company's last enabled owner. The
 * owners' rows are locked (PostgreSQL), so two owners demoting each other at once leave one.
 */
async function keepAnOwner(store: Store, trx: Kysely<Db>, row: UserRow, refusal: string): Promise<void> {
  if (row.role !== 'owner') return
  let q = trx
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', row.company_id)
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
  if (store.sql.rowLocks) q = q.forUpdate()
  const owners = await q.execute()
  if (!owners.some((o) => o.id !== row.id)) throw new AppError('conflict', refusal)
}

export async function setUserRole(store: Store, actor: Actor, ref: string, role: Role, now: Date): Promise<User> {
  const row = await prepareRoleChange(store, actor, ref, role)
  if (row.role === role) return toUser(row)
  return store.writeTransaction((trx) => setRoleIn(store, trx, actor, row, role, now))
}

/** The user whose role is to change, checked (a login with users, neither role wider than the actor's) but not changed. */
export async function prepareRoleChange(store: Store, actor: Actor, ref: string, role: Role): Promise<UserRow> {
  requireManager(actor)
  requireNoWider(actor, role, 'you cannot give a role wider than your own')
  const row = await findUser(store, actor.companyId, ref)
  requireNoWider(actor, row.role, `you cannot change the role of ${row.email}`)
  return row
}

/** The role change inside the caller's write transaction; `approval` names the proposal in its event. */
export async function setRoleIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  row: UserRow,
  role: Role,
  now: Date,
  approval?: object,
): Promise<User> {
  const after = { ...row, role }
  await keepAnOwner(store, trx, row, `${row.email} is the company's last owner: make another user owner first`)
  await trx.updateTable('users').set({ role }).where('id', '=', row.id).execute()
  const data = { ...toUser(after), previous_role: row.role, ...(approval ? { approval } : {}) }
  await recordEvents(store, trx, [eventRow(actor, 'user.role_changed', row.id, data, now)])
  return toUser(after)
}

export async function disableUser(store: Store, actor: Actor, ref: string, now: Date): Promise<User> {
  requireManager(actor)
  const row = await findUser(store, actor.companyId, ref)
  requireNoWider(actor, row.role, `you cannot disable ${row.email}`)
  if (row.disabled_at) return toUser(row)
  if (row.id === actor.userId) throw new AppError('conflict', 'you cannot disable yourself: another owner can')
  const after = { ...row, disabled_at: now.toISOString() }
  await store.writeTransaction(async (trx) => {
    await keepAnOwner(store, trx, row, `${row.email} is the company's last owner`)
    const r = await trx
      .updateTable('users')
      .set({ disabled_at: after.disabled_at })
      .where('id', '=', row.id)
      .where('disabled_at', 'is', null)
      .executeTakeFirst()
    // Disabled once (and one event), even if two disable at the same moment.
    if (Number(r.numUpdatedRows) === 1) await recordEvents(store, trx, [eventRow(actor, 'user.disabled', row.id, toUser(after), now)])
  })
  return toUser(await findUser(store, actor.companyId, row.id))
}
