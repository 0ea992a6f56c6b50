/**
 * Rolling an API key: a successor with the same name, scopes and limits; the old key keeps
 * working until its grace ends, then it is refused and reads as revoked. Both transports, both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settleRolledKeys } from '../../src/domain/api-keys/keys.js'
import type { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as AppError,
  )

describe.each(MATRIX)('key rolling over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  const admin = () => h.client({ token: t.token })
  const newKey = (name: string) =>
    admin().keys.create({
      name,
      scopes: ['read', 'write'],
      description: 'for the roll',
      rate_limit_per_minute: 321,
      rate_limit_per_day: 4321,
    })
  const works = async (key: string) => (await failure(h.client({ apiKey: key }).accounts.list())) === undefined

  it('makes a successor with the same name, scopes and limits; both keys work during the grace, and the list shows the pair', async () => {
    const old = await newKey('ci')
    const before = Date.now()
    const { key, previous } = await admin().keys.roll(old.id, { grace_seconds: 3600 })
    expect(key.key).not.toBe(old.key)
    expect(key.key_prefix).not.toBe(old.key_prefix)
    expect({ name: key.name, scopes: key.scopes, description: key.description }).toEqual({
      name: 'ci',
      scopes: ['read', 'write'],
      description: 'for the roll',
    })
    expect([key.rate_limit_per_minute, key.rate_limit_per_day]).toEqual([321, 4321])
    expect(key.rolled_from).toBe(old.id)
    expect(previous.rolled_to).toBe(key.id)
    expect(previous.revoked_at).toBeNull()
    const graceEnd = Date.parse(previous.grace_ends_at ?? '')
    expect(graceEnd).toBeGreaterThanOrEqual(before + 3600_000 - 1000)
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000)
    expect(await works(old.key)).toBe(true)
    expect(await works(key.key)).toBe(true)
    const listed = await admin().keys.list('active')
    const pair = listed.filter((k) => k.id === old.id || k.id === key.id)
    expect(pair.map((k) => [k.id, k.rolled_to, k.rolled_from])).toEqual([
      [old.id, key.id, null],
      [key.id, null, old.id],
    ])
  })

  it('refuses the old key once the grace has ended: it reads as revoked at the grace end, and the housekeeping writes it down', async () => {
    const old = await newKey('deploy')
    const { key } = await admin().keys.roll(old.id, { grace_seconds: 3600 })
    // The grace ends: move its end into the past rather than wait an hour.
    const ended = new Date(Date.now() - 1000).toISOString()
    await h.store.db.updateTable('api_keys').set({ revoke_at: ended }).where('id', '=', old.id).execute()
    const refused = await failure(h.client({ apiKey: old.key }).accounts.list())
    expect(refused?.status).toBe(401)
    expect(refused?.message).toContain('rolled')
    expect(await works(key.key)).toBe(true)
    const revoked = await admin().keys.list('revoked')
    expect(revoked.find((k) => k.id === old.id)).toMatchObject({ revoked_at: ended, is_active: false, grace_ends_at: null })
    expect((await admin().keys.list('active')).some((k) => k.id === old.id)).toBe(false)
    expect(await settleRolledKeys(h.store, new Date())).toBeGreaterThanOrEqual(1)
    const row = await h.store.db
      .selectFrom('api_keys')
      .select(['revoked_at', 'is_active'])
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ revoked_at: ended, is_active: 0 })
    // Written down with its event (docs/events.md), by the housekeeping.
    const events = await h.store.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'api_key.revoked')
      .where('object_id', '=', old.id)
      .execute()
    expect(events.map((e) => [e.actor, JSON.parse(e.data).revoked_at])).toEqual([['system:housekeeping', ended]])
  })

  it('with grace 0 revokes the old key at once', async () => {
    const old = await newKey('now')
    const { key, previous } = await admin().keys.roll(old.id, { grace_seconds: 0 })
    expect(previous.revoked_at).not.toBeNull()
    expect(await works(old.key)).toBe(false)
    expect(await works(key.key)).toBe(true)
  })

  it('refuses a second roll, a revoked key, an unknown key, a grace over 7 days and an API key as the caller', async () => {
    const old = await newKey('twice')
    await admin().keys.roll(old.id, { grace_seconds: 60 })
    expect((await failure(admin().keys.roll(old.id, { grace_seconds: 60 })))?.status).toBe(409)
    const gone = await newKey('gone')
    await admin().keys.revoke(gone.id)
    expect((await failure(admin().keys.roll(gone.id, { grace_seconds: 60 })))?.status).toBe(409)
    expect((await failure(admin().keys.roll('00000000-0000-0000-0000-000000000000', { grace_seconds: 60 })))?.status).toBe(404)
    const long = await failure(admin().keys.roll((await newKey('long')).id, { grace_seconds: 8 * 24 * 3600 }))
    expect(long?.status).toBe(400)
    expect(JSON.stringify(long?.details)).toContain('grace_seconds')
    const byKey = await failure(h.client({ apiKey: t.key }).keys.roll((await newKey('bykey')).id, { grace_seconds: 60 }))
    expect(byKey?.status).toBe(403)
  })

  it('two rolls of one key at once make one successor; the other is a conflict', async () => {
    const old = await newKey('race')
    const results = await Promise.all([0, 1].map(() => failure(admin().keys.roll(old.id, { grace_seconds: 60 }))))
    expect(results.filter((r) => r === undefined)).toHaveLength(1)
    expect(results.find((r) => r !== undefined)?.status).toBe(409)
    const successors = (await admin().keys.list('all')).filter((k) => k.rolled_from === old.id)
    expect(successors).toHaveLength(1)
  })
})
