/**
 * API keys: create (the full key is returned once), list, show, revoke, and usage statistics
 * computed from the request log (docs/service-interface.md sections 2.1, 2.2; docs/api.md section 3).
 */
import { randomUUID } from 'node:crypto'
import type { Store } from '../../store/store.js'
import type { Kysely } from 'kysely'
import type { ApiKeyRow, Db } from '../../store/schema.js'
import type { Actor } from '../actor.js'
import { AppError, notFound, validation } from '../../kernel/errors.js'
import { generateApiKey, hashApiKey, keyPrefix } from './secrets.js'
import type { Scope } from '../schemas.js'
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from './schemas.js'
import { eventRow, recordEvents } from '../events.js'
import { scopesBeyond } from '../../kernel/roles.js'

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60
export const DEFAULT_RATE_LIMIT_PER_DAY = 10_000

/** The key as the API shows it at `now`: a rolled key whose grace has ended reads as revoked then. */
export function toApiKey(row: ApiKeyRow, now: Date): ApiKey {
  const revokedAt = row.revoked_at ?? (row.revoke_at && row.revoke_at <= now.toISOString() ? row.revoke_at : null)
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    scopes: JSON.parse(row.scopes) as ApiKey['scopes'],
    description: row.description,
    last_used_at: row.last_used_at,
    usage_count: Number(row.usage_count),
    rate_limit_per_minute: row.rate_limit_per_minute,
    rate_limit_per_day: row.rate_limit_per_day,
    is_active: row.is_active === 1 && revokedAt === null,
    expires_at: row.expires_at,
    revoked_at: revokedAt,
    created_at: row.created_at,
    created_by: row.created_by,
    rolled_to: row.rolled_to ?? null,
    rolled_from: row.rolled_from ?? null,
    grace_ends_at: revokedAt === null ? (row.revoke_at ?? null) : null,
    agent: Number(row.agent ?? 0) === 1,
  }
}

export async function createApiKey(store: Store, actor: Actor, input: CreateApiKeyRequest, now: Date): Promise<CreatedApiKey> {
  const { row, key } = prepareApiKey(actor, input, now)
  const shown = await store.writeTransaction((trx) => insertApiKey(store, trx, actor, row, now))
  return { ...shown, key }
}

/** The scopes that let a key change something: any but read and reports (a key-write policy holds those back). */
export const writesWith = (scopes: readonly string[]) => scopes.some((s) => s !== 'read' && s !== 'reports')

/** The key's row and secret, checked (no wider than `actor`, expiry ahead) but not stored. */
export function prepareApiKey(actor: Actor, input: CreateApiKeyRequest, now: Date): { row: ApiKeyRow; key: string } {
  // A key does no more than its creator may (docs/people.md).
  const beyond = scopesBeyond(input.scopes, actor.scopes)
  if (beyond.length > 0)
    throw new AppError('forbidden', `a key cannot have scopes wider than yours: you lack ${beyond.join(', ')}`, {
      details: [{ path: 'scopes', message: `${beyond.join(', ')} not held by your role` }],
    })
  let expiresAt: string | null = null
  if (input.expires_at) {
    const t = new Date(input.expires_at)
    if (t.getTime() <= now.getTime()) throw validation('expires_at', 'must be in the future')
    expiresAt = t.toISOString()
  }
  const key = generateApiKey()
  const row: ApiKeyRow = {
    id: randomUUID(),
    company_id: actor.companyId,
    name: input.name,
    key_prefix: keyPrefix(key),
    key_hash: hashApiKey(key),
    scopes: JSON.stringify([...new Set(input.scopes)]),
    description: input.description ?? '',
    rate_limit_per_minute: input.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    rate_limit_per_day: input.rate_limit_per_day ?? DEFAULT_RATE_LIMIT_PER_DAY,
    is_active: 1,
    expires_at: expiresAt,
    revoked_at: null,
    created_at: now.toISOString(),
    created_by: actor.userId ?? '',
    usage_count: 0,
    last_used_at: null,
    rolled_to: null,
    rolled_from: null,
    revoke_at: null,
    agent: input.agent ? 1 : 0,
  }
  return { row, key }
}

/** Store a prepared key inside the caller's write transaction: its record as the API shows it. */
export async function insertApiKey(store: Store, trx: Kysely<Db>, actor: Actor, row: ApiKeyRow, now: Date): Promise<ApiKey> {
  const shown = toApiKey(row, now)
  await trx.insertInto('api_keys').values(row).execute()
  await recordEvents(store, trx, [eventRow(actor, 'api_key.created', row.id, shown, now)])
  return shown
}

export type KeyStatus = 'active' | 'revoked' | 'expired' | 'all'

export async function listApiKeys(store: Store, companyId: string, status: KeyStatus, now: Date): Promise<ApiKey[]> {
  const nowIso = now.toISOString()
  let q = store.db.selectFrom('api_keys').selectAll().where('company_id', '=', companyId)
  // A rolled key whose grace has ended is revoked, whether or not the housekeeping has written it down yet.
  if (status === 'revoked')
    q = q.where((eb) => eb.or([eb('revoked_at', 'is not', null), eb.and([eb('revoke_at', 'is not', null), eb('revoke_at', '<=', nowIso)])]))
  else if (status !== 'all')
    q = q.where('revoked_at', 'is', null).where((eb) => eb.or([eb('revoke_at', 'is', null), eb('revoke_at', '>', nowIso)]))
  if (status === 'expired') q = q.where('expires_at', '<=', nowIso)
  if (status === 'active')
    q = q.where('is_active', '=', 1).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
  const rows = await q.orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
  return rows.map((r) => toApiKey(r, now))
}

export async function findApiKey(store: Store, companyId: string, id: string): Promise<ApiKeyRow> {
  const row = await store.db.selectFrom('api_keys').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst()
  if (!row) throw notFound('API key')
  return row
}

export async function revokeApiKey(store: Store, actor: Actor, id: string, now: Date): Promise<ApiKey> {
  const { companyId } = actor
  const row = await findApiKey(store, companyId, id)
  const shown = toApiKey(row, now)
  if (shown.revoked_at) return shown
  const revokedAt = now.toISOString()
  // Only the first revocation sets the time (and writes the event), even if two race.
  await store.writeTransaction(async (trx) => {
    const r = await trx
      .updateTable('api_keys')
      .set({ is_active: 0, revoked_at: revokedAt })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) === 1)
      await recordEvents(store, trx, [
        eventRow(actor, 'api_key.revoked', id, toApiKey({ ...row, is_active: 0, revoked_at: revokedAt }, now), now),
      ])
  })
  return toApiKey(await findApiKey(store, companyId, id), now)
}

/** The longest grace a rolled key keeps: long enough to roll a key out by hand, short enough to matter. */
export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 60 * 60
export const DEFAULT_ROLL_GRACE_SECONDS = 60 * 60

/**
 * Roll a key: a successor with the same name, scopes, description, limits and expiry, shown once; the
 * old key keeps working for `graceSeconds` and is revoked when the grace ends (at once for 0). One
 * database transaction: two rolls of one key at once make one successor, the other is a conflict.
 */
export async function rollApiKey(
  store: Store,
  actor: Actor,
  id: string,
  graceSeconds: number,
  now: Date,
): Promise<{ key: CreatedApiKey; previous: ApiKey }> {
  const { row, secret } = await prepareRoll(store, actor, id, now)
  const rolled = await store.writeTransaction((trx) => rollIn(store, trx, actor, row, graceSeconds, now))
  return { key: { ...rolled.key, key: secret }, previous: rolled.previous }
}

/** The successor's row (its `rolled_from` the old key) and secret, the old key checked but nothing stored. */
export async function prepareRoll(
  store: Store,
  actor: Actor,
  id: string,
  now: Date,
): Promise<{ row: ApiKeyRow; secret: string; old: ApiKey }> {
  const old = toApiKey(await findApiKey(store, actor.companyId, id), now)
  if (old.revoked_at) throw new AppError('conflict', `API key ${old.key_prefix}… is revoked: create a new key instead`)
  if (old.expires_at && old.expires_at <= now.toISOString())
    throw new AppError('conflict', `API key ${old.key_prefix}… has expired: create a new key instead`)
  if (old.rolled_to) throw new AppError('conflict', `API key ${old.key_prefix}… was already rolled (its successor is ${old.rolled_to})`)
  const secret = generateApiKey()
  const row: ApiKeyRow = {
    id: randomUUID(),
    company_id: actor.companyId,
    name: old.name,
    key_prefix: keyPrefix(secret),
    key_hash: hashApiKey(secret),
    scopes: JSON.stringify(old.scopes),
    description: old.description,
    rate_limit_per_minute: old.rate_limit_per_minute,
    rate_limit_per_day: old.rate_limit_per_day,
    is_active: 1,
    expires_at: old.expires_at,
    revoked_at: null,
    created_at: now.toISOString(),
    created_by: actor.userId ?? '',
    usage_count: 0,
    last_used_at: null,
    rolled_to: null,
    rolled_from: old.id,
    revoke_at: null,
    // An agent's key rolls into an agent's key.
    agent: old.agent ? 1 : 0,
  }
  return { row, secret, old }
}

/**
 * The roll inside the caller's write transaction: the old key (`row.rolled_from`) marked rolled, its
 * grace counted from `now`, and the successor stored; a key rolled or revoked meanwhile is a conflict.
 */
export async function rollIn(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  prepared: ApiKeyRow,
  graceSeconds: number,
  now: Date,
): Promise<{ key: ApiKey; previous: ApiKey }> {
  const nowIso = now.toISOString()
  const row = { ...prepared, created_at: nowIso }
  const oldId = row.rolled_from ?? ''
  const revokeAt = new Date(now.getTime() + graceSeconds * 1000).toISOString()
  const marked = await trx
    .updateTable('api_keys')
    .set(
      graceSeconds === 0
        ? { rolled_to: row.id, revoke_at: nowIso, revoked_at: nowIso, is_active: 0 }
        : { rolled_to: row.id, revoke_at: revokeAt },
    )
    .where('id', '=', oldId)
    .where('company_id', '=', actor.companyId)
    .where('rolled_to', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  if (Number(marked.numUpdatedRows) !== 1) throw new AppError('conflict', `API key ${oldId} was rolled or revoked meanwhile`)
  await trx.insertInto('api_keys').values(row).execute()
  await recordEvents(store, trx, [eventRow(actor, 'api_key.created', row.id, toApiKey(row, now), now)])
  const previous = await trx.selectFrom('api_keys').selectAll().where('id', '=', oldId).executeTakeFirstOrThrow()
  return { key: toApiKey(row, now), previous: toApiKey(previous, now) }
}

/** Write down the revocation of rolled keys whose grace has ended (they are refused from that moment all the same). */
export async function settleRolledKeys(store: Store, now: Date): Promise<number> {
  const ts = now.toISOString()
  // Each key written down with its api_key.revoked event, by the housekeeping (docs/events.md).
  return store.writeTransaction(async (trx) => {
    let q = trx
      .selectFrom('api_keys')
      .selectAll()
      .where('revoked_at', 'is', null)
      .where('revoke_at', 'is not', null)
      .where('revoke_at', '<=', ts)
    if (store.sql.rowLocks) q = q.forUpdate()
    const due = await q.execute()
    if (due.length === 0) return 0
    await trx
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.ref('revoke_at'), is_active: 0 }))
      .where(
        'id',
        'in',
        due.map((k) => k.id),
      )
      .execute()
    await recordEvents(
      store,
      trx,
      due.map((k) =>
        eventRow(
          'system:housekeeping',
          'api_key.revoked',
          k.id,
          toApiKey({ ...k, revoked_at: k.revoke_at, is_active: 0 }, now),
          now,
          k.company_id,
        ),
      ),
    )
    return due.length
  })
}

export function hasScope(actor: Actor, scope: Scope): boolean {
  return actor.scopes.includes(scope)
}

export function requireJwtScope(actor: Actor, scope: Scope): void {
  if (actor.kind !== 'jwt')
    throw new AppError('forbidden', 'API keys cannot manage API keys: log in (`finctl login`) and use the access token')
  if (!hasScope(actor, scope)) throw new AppError('forbidden', `this token lacks the ${scope} scope`)
}
