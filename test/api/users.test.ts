/**
 * People (docs/people.md) through both transports on both stores: an invitation shown once and
 * never in the event stream, accepted into a logged-in user of the invited role; a session carries
 * its role's scopes (and no more than the role has now); escalation refused (inviting, giving a
 * role, a key wider than one's own); a disabled user's login and token refused; the user as actor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { ROLE_SCOPES } from '../../src/kernel/roles.js'
import { createHarness, MATRIX, signToken, type Harness, type Tenant } from '../helpers/harness.js'

const PASSWORD = 'a long enough password'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('users and roles over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let ownerId: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('People')
    owner = h.client({ token: a.token })
    ownerId = (await owner.users.me()).user?.id ?? ''
  })
  afterAll(async () => {
    await h?.close()
  })

  /** Invite and accept: the new user's client and id. */
  async function join(email: string, role: string) {
    const inv = await owner.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id, token: accepted.access_token, inv }
  }

  it('an invitation: its token shown once, stored hashed, never in the event stream; accepted once', async () => {
    const inv = await owner.users.invite({ email: 'Bea@People.test', role: 'bookkeeper' })
    expect(inv.token).toMatch(/^fdi_[0-9A-Za-z]{43}$/)
    expect(inv).toMatchObject({ email: 'bea@people.test', role: 'bookkeeper', invited_by: ownerId })
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(7 * 24 * 3600 * 1000)
    const stored = await h.store.db.selectFrom('user_invitations').selectAll().where('id', '=', inv.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(inv.token.slice(4))
    const events = await owner.events.list({ type: 'user.invited' })
    const ev = events.data.find((e) => e.object_id === inv.id)
    expect(ev?.data).toMatchObject({ email: 'bea@people.test', role: 'bookkeeper' })
    expect(JSON.stringify(events.data)).not.toContain(inv.token.slice(4))
    expect(ev?.actor).toBe(`user:${ownerId}`)

    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    expect(accepted.user).toMatchObject({ email: 'bea@people.test', role: 'bookkeeper', disabled_at: null })
    expect(accepted.scopes).toEqual([...ROLE_SCOPES.bookkeeper])
    await rejects(h.client().acceptInvite(inv.token, PASSWORD), 'unauthorized')
    // The new user logs in with the password chosen.
    const t = await h.client().token('bea@people.test', PASSWORD)
    expect(t.scopes).toEqual([...ROLE_SCOPES.bookkeeper])
    const me = await h.client({ token: t.access_token }).users.me()
    expect(me).toMatchObject({ credential: 'access_token', user: { email: 'bea@people.test', role: 'bookkeeper' } })
  })

  it('refuses a short password, an unknown token and an expired invitation', async () => {
    const inv = await owner.users.invite({ email: 'late@people.test', role: 'viewer' })
    const short = await rejects(h.client().acceptInvite(inv.token, 'short'), 'validation_error')
    expect(short.details?.[0]?.path).toBe('password')
    await rejects(h.client().acceptInvite(`fdi_${'x'.repeat(43)}`, PASSWORD), 'unauthorized')
    await h.store.db.updateTable('user_invitations').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', inv.id).execute()
    const e = await rejects(h.client().acceptInvite(inv.token, PASSWORD), 'unauthorized')
    expect(e.message).toMatch(/expired/)
  })

  it('a role that does not exist: 400 naming role; an email already a user: 409', async () => {
    const e = await rejects(owner.users.invite({ email: 'x@people.test', role: 'boss' }), 'validation_error')
    expect(e.details?.map((d) => d.path)).toContain('role')
    await rejects(owner.users.invite({ email: a.email, role: 'viewer' }), 'conflict')
    const bad = await rejects(owner.users.setRole(a.email, 'superuser'), 'validation_error')
    expect(bad.details?.map((d) => d.path)).toContain('role')
  })

  it("a bookkeeper writes transactions but cannot close, manage keys or invite; the audit actor is the user's id", async () => {
    const b = await join('book@people.test', 'bookkeeper')
    const tx = await b.client.transactions.create({
      bank_account_id: a.accountId,
      transaction_date: '2026-04-02',
      description: 'by the bookkeeper',
      amount: '-12.30',
    })
    const events = await owner.events.list({ type: 'transaction.created' })
    expect(events.data.find((e) => e.object_id === tx.id)?.actor).toBe(`user:${b.id}`)
    // The request log has the user's requests under the user's id, as the audit actor names them.
    const log = await owner.request<Array<{ key_id: string; method: string; path: string; status: number }>>('GET', '/api-v1/logs', {
      query: { key: `user:${b.id}` },
    })
    expect(log.data).toContainEqual(
      expect.objectContaining({ key_id: `user:${b.id}`, method: 'POST', path: '/api-v1/transactions', status: 201 }),
    )
    await rejects(b.client.close.month('2026-01', {}), 'forbidden')
    await rejects(b.client.keys.create({ name: 'mine', scopes: ['read'] }), 'forbidden')
    const inviting = await rejects(b.client.users.invite({ email: 'boss@people.test', role: 'owner' }), 'forbidden')
    expect(inviting.message).toMatch(/users/)
    await rejects(b.client.users.setRole(b.id, 'owner'), 'forbidden')
    expect((await b.client.users.list()).map((u) => u.email)).toContain('book@people.test')
  })

  it('nobody gives a role, or makes a key, wider than their own (a session narrowed to read and users)', async () => {
    const claims = JSON.parse(Buffer.from(a.token.split('.')[1], 'base64url').toString()) as { sub: string; cid: string }
    const narrow = h.client({
      token: await signToken(h.store, { sub: claims.sub, cid: claims.cid, scopes: ['read', 'users', 'api_keys'] }, 600),
    })
    const wider = await rejects(narrow.users.invite({ email: 'o2@people.test', role: 'owner' }), 'forbidden')
    expect(wider.message).toMatch(/wider than your own/)
    expect(wider.message).toMatch(/write/)
    const auditor = await narrow.users.invite({ email: 'aud0@people.test', role: 'auditor' })
    expect(auditor.role).toBe('auditor')
    const v = await join('v0@people.test', 'viewer')
    await rejects(narrow.users.setRole(v.id, 'bookkeeper'), 'forbidden')
    const key = await rejects(narrow.keys.create({ name: 'too wide', scopes: ['read', 'write'] }), 'forbidden')
    expect(key.message).toMatch(/lack write/)
    expect((await narrow.keys.create({ name: 'as wide', scopes: ['read'] })).scopes).toEqual(['read'])
  })

  it('an auditor reads (audit, close records) and writes nothing; a viewer reads reports only', async () => {
    const au = await join('audit@people.test', 'auditor')
    expect((await au.client.audit.verify()).intact).toBe(true)
    expect(Array.isArray(await au.client.close.history())).toBe(true)
    await rejects(
      au.client.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-04-03', description: 'no', amount: '1.00' }),
      'forbidden',
    )
    const v = await join('view@people.test', 'viewer')
    const summary = await v.client.reports.summary({ from: '2026-01-01', to: '2026-12-31' })
    expect(summary).toMatchObject({ from: '2026-01-01', to: '2026-12-31', currency: 'USD' })
    await rejects(v.client.transactions.list({}), 'forbidden')
    await rejects(v.client.audit.verify(), 'forbidden')
  })

  it('set-role takes effect at the next request, even on a token issued before', async () => {
    const u = await join('mover@people.test', 'bookkeeper')
    const changed = await owner.users.setRole('mover@people.test', 'auditor')
    expect(changed).toMatchObject({ id: u.id, role: 'auditor', scopes: [...ROLE_SCOPES.auditor] })
    await rejects(
      u.client.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-04-03', description: 'no', amount: '1.00' }),
      'forbidden',
    )
    const ev = (await owner.events.list({ type: 'user.role_changed' })).data.find((e) => e.object_id === u.id)
    expect(ev?.data).toMatchObject({ role: 'auditor', previous_role: 'bookkeeper' })
  })

  it("a disabled user's token and login are refused; the last owner cannot be disabled nor demoted", async () => {
    const u = await join('gone@people.test', 'accountant')
    expect((await u.client.users.me()).user?.role).toBe('accountant')
    const d = await owner.users.disable(u.id)
    expect(d.disabled_at).not.toBeNull()
    expect((await owner.users.list()).find((x) => x.id === u.id)?.disabled_at).toBe(d.disabled_at)
    const e = await rejects(u.client.users.me(), 'unauthorized')
    expect(e.message).toMatch(/disabled/)
    const login = await rejects(h.client().token('gone@people.test', PASSWORD), 'unauthorized')
    expect(login.message).toMatch(/disabled/)
    // A wrong password says nothing of it.
    expect((await rejects(h.client().token('gone@people.test', 'wrong password'), 'unauthorized')).message).not.toMatch(/disabled/)
    await rejects(owner.users.disable(ownerId), 'conflict')
    await rejects(owner.users.setRole(ownerId, 'viewer'), 'conflict')
    await rejects(owner.users.disable('nobody@people.test'), 'not_found')
  })

  it('an accountant closes and reopens a month; an API key never manages people', async () => {
    const acc = await join('acc@people.test', 'accountant')
    const closed = await acc.client.close.month('2025-06', { force: true, reason: 'accountant closes' })
    expect(closed.record).toMatchObject({ period: '2025-06', action: 'close', actor: `user:${acc.id}` })
    const reopened = await acc.client.close.reopen('2025-06', 'accountant reopens')
    expect(reopened).toMatchObject({ action: 'reopen', actor: `user:${acc.id}` })
    await rejects(
      acc.client.transactions.create({ bank_account_id: a.accountId, transaction_date: '2026-04-03', description: 'no', amount: '1.00' }),
      'forbidden',
    )
    const keyClient = h.client({ apiKey: a.key })
    await rejects(keyClient.request('POST', '/api-v1/users/invitations', { body: { email: 'k@people.test', role: 'viewer' } }), 'forbidden')
    const me = await keyClient.users.me()
    expect(me).toMatchObject({ credential: 'api_key', user: { id: ownerId, role: 'owner' } })
  })

  // Last: it leaves one of the two owners disabled.
  it('two owners disabling each other at once leave one enabled owner', async () => {
    const second = await join('owner2@people.test', 'owner')
    const results = await Promise.allSettled([owner.users.disable(second.id), second.client.users.disable(ownerId)])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    for (const r of results) if (r.status === 'rejected') expect(['conflict', 'unauthorized']).toContain((r.reason as AppError).code)
    const owners = await h.store.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', a.companyId)
      .where('role', '=', 'owner')
      .where('disabled_at', 'is', null)
      .execute()
    expect(owners).toHaveLength(1)
  })
})
