/**
 * Authentication: API keys (looked up by their SHA-256, compared in constant time) and JWTs
 * (HS256 with a per-installation secret kept in the database; `alg: none` is never accepted).
 */
import { timingSafeEqual } from 'node:crypto'
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'
import { AppError } from '../../kernel/errors.js'
import { dummyPasswordHash, hashApiKey, hashPassword, KEY_PATTERN, needsRehash, verifyPassword } from './secrets.js'
import type { Actor } from '../actor.js'
import { giveBackLoginAttempt, recordLoginFailure, takeLoginAttempt } from './login-limits.js'
import { JWT_SCOPES, type Scope } from '../../kernel/vocabulary.js'
import { scopesOfRole, scopesWithin } from '../../kernel/roles.js'
import type { Store } from '../../store/store.js'
import type { ApiKeyRow, UserRow } from '../../store/schema.js'

export const TOKEN_TTL_SECONDS = 24 * 60 * 60
const ISSUER = 'finctl'
/** How far another server's clock may run ahead of ours when it issued a token. */
const CLOCK_SKEW_SECONDS = 60

export interface KeyAuth {
  actor: Actor
  key: ApiKeyRow
}

const unauthorized = (message: string) => new AppError('unauthorized', message)

export async function authenticateApiKey(store: Store, key: string, now: Date): Promise<KeyAuth> {
  if (!KEY_PATTERN.test(key)) throw unauthorized('invalid API key')
  const hash = hashApiKey(key)
  const row = await store.hot.findKeyByHash(hash)
  // The lookup is by hash; the comparison below is constant-time all the same.
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) throw unauthorized('invalid API key')
  if (row.revoked_at) throw unauthorized('this API key has been revoked')
  if (row.revoke_at && row.revoke_at <= now.toISOString())
    throw unauthorized('this API key was rolled and its grace period has ended: use its successor')
  if (!row.is_active) throw unauthorized('this API key is inactive')
  if (row.expires_at && row.expires_at <= now.toISOString()) throw unauthorized('this API key has expired')
  // A key acts for its creator: never beyond the creator's role as it stands now (docs/people.md).
  const { creator_role: role, creator_disabled_at: disabled, ...stored } = row
  if (role === null) throw unauthorized('the user who created this API key is no longer in the company')
  if (disabled) throw unauthorized('the user who created this API key is disabled: ask an owner of the company')
  return {
    key: stored,
    actor: {
      companyId: stored.company_id,
      kind: 'api_key',
      keyId: stored.id,
      userId: stored.created_by,
      scopes: scopesWithin(JSON.parse(stored.scopes) as Scope[], scopesOfRole(role)),
      ...(Number(stored.agent) === 1 ? { agent: true } : {}),
    },
  }
}

let secretCache = new WeakMap<Store, Promise<Uint8Array>>()

export function jwtSecret(store: Store): Promise<Uint8Array> {
  let p = secretCache.get(store)
  if (!p) {
    p = store.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'jwt_secret')
      .executeTakeFirstOrThrow()
      .then((r) => new TextEncoder().encode(r.value))
    secretCache.set(store, p)
  }
  return p
}

/** For tests that swap stores. */
export function forgetSecrets(): void {
  secretCache = new WeakMap()
}

/**
 * A login: `address` is the client's (finctl serve), undefined on the embedded core. Limited per
 * email and address (login-limits.ts); a refused password is recorded there.
 */
export async function issueToken(store: Store, email: string, password: string, now: Date, address?: string) {
  await takeLoginAttempt(store, email, address, now)
  const user = await store.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst()
  // Verify against a dummy hash for unknown users so the answer takes as long either way.
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()))
  if (!user || !ok) {
    await recordLoginFailure(store, { email, userId: user?.id, address }, now)
    throw unauthorized('wrong email or password')
  }
  // Said only to whoever knows the password.
  if (user.disabled_at) throw unauthorized('this user is disabled: ask an owner of the company')
  await giveBackLoginAttempt(store, email, now)
  // A hash of an older, lower cost: hashed again now that the password is known (once, if two logins race).
  if (needsRehash(user.password_hash))
    await store.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', user.id)
      .where('password_hash', '=', user.password_hash)
      .execute()
  return signSession(store, user, now)
}

/** A session for a user: its scopes are the user's role's (docs/people.md). */
export async function signSession(store: Store, user: Pick<UserRow, 'id' | 'company_id' | 'role'>, now: Date) {
  const scopes: Scope[] = [...scopesOfRole(user.role)]
  const iat = Math.floor(now.getTime() / 1000)
  const token = await new SignJWT({ cid: user.company_id, scopes })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(await jwtSecret(store))
  return { access_token: token, token_type: 'Bearer' as const, expires_in: TOKEN_TTL_SECONDS, scopes }
}

export async function authenticateJwt(store: Store, header: string, now: Date): Promise<Actor> {
  const token = header.replace(/^Bearer\s+/i, '').trim()
  try {
    const { payload } = await jwtVerify(token, await jwtSecret(store), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
      requiredClaims: ['exp', 'iat'],
    })
    // A token lives TOKEN_TTL_SECONDS at most: one without an end, or that ends later, was not issued here.
    const nowSec = Math.floor(now.getTime() / 1000)
    const [exp, iat] = [payload.exp as number, payload.iat as number]
    if (exp - iat > TOKEN_TTL_SECONDS || exp > nowSec + TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS) throw unauthorized('invalid access token')
    const scopes = Array.isArray(payload.scopes)
      ? (payload.scopes as unknown[]).filter((s): s is Scope => JWT_SCOPES.includes(s as Scope))
      : []
    if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') throw unauthorized('invalid access token')
    // The user must still exist in that company, be enabled, and the token holds no more than the
    // role has now: a disabled user or a narrowed role takes effect at the next request.
    const user = await store.db
      .selectFrom('users')
      .select(['id', 'role', 'disabled_at'])
      .where('id', '=', payload.sub)
      .where('company_id', '=', payload.cid)
      .executeTakeFirst()
    if (!user) throw unauthorized('invalid access token')
    if (user.disabled_at) throw unauthorized('this user is disabled: ask an owner of the company')
    const held = scopesOfRole(user.role)
    return { companyId: payload.cid, kind: 'jwt', userId: payload.sub, scopes: scopes.filter((s) => held.includes(s)) }
  } catch (e) {
    if (e instanceof AppError) throw e
    if (e instanceof joseErrors.JWTExpired) throw unauthorized('access token expired: run `finctl login` again')
    throw unauthorized('invalid access token')
  }
}
