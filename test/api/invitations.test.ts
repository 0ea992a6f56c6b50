/**
 * Invitations as the owner sees them (docs/people.md, "Invitations") through both transports on
 * both stores: the pending ones listed with their expiry and never a token; revoking one; an
 * accepted, revoked or expired invitation cannot be used, nor revoked; only a login with users. An
 * email of another company's user is answered exactly as an unknown one (no company learns who uses
 * the service); accepting it tells only who knows that user's password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

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

describe.each(MATRIX)('invitations over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Invitations')
    owner = h.client({ token: a.token })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('lists the pending ones with their expiry, never a token (read, as users are); revoked by a login with users alone', async () => {
    const one = await owner.users.invite({ email: `one-${kind}@inv.test`, role: 'bookkeeper' })
    const two = await owner.users.invite({ email: `two-${kind}@inv.test`, role: 'auditor' })
    const list = await owner.users.invitations()
    expect(list.map((i) => i.id)).toEqual([two.id, one.id])
    expect(list[1]).toEqual({
      id: one.id,
      email: `one-${kind}@inv.test`,
      role: 'bookkeeper',
      invited_by: one.invited_by,
      created_at: one.created_at,
      expires_at: one.expires_at,
      state: 'pending',
      accepted_at: null,
      user_id: null,
      revoked_at: null,
      revoked_by: null,
    })
    const text = JSON.stringify(list)
    for (const t of [one.token, two.token]) expect(text).not.toContain(t.slice(4))
    const accepted = await h.client().acceptInvite(two.token, PASSWORD)
    const auditor = h.client({ token: accepted.access_token })
    // Read as the users are (the auditor reads everything); revoked by a login with users alone.
    expect((await auditor.users.invitations()).map((i) => i.id)).toEqual([one.id])
    await rejects(auditor.users.revokeInvite(one.id), 'forbidden')
    await rejects(h.client({ apiKey: a.key }).users.revokeInvite(one.id), 'forbidden')
    const viewer = h.client({
      token: (await h.client().acceptInvite((await owner.users.invite({ email: `v-${kind}@inv.test`, role: 'viewer' })).token, PASSWORD))
        .access_token,
    })
    await rejects(viewer.users.invitations(), 'forbidden')
    // Accepted: out of the pending list, there with --all; it cannot be used again nor revoked.
    expect((await owner.users.invitations()).map((i) => i.id)).toEqual([one.id])
    expect((await owner.users.invitations({ all: true })).find((i) => i.id === two.id)).toMatchObject({
      state: 'accepted',
      user_id: accepted.user.id,
    })
    await rejects(h.client().acceptInvite(two.token, PASSWORD), 'unauthorized')
    expect((await rejects(owner.users.revokeInvite(two.id), 'conflict')).message).toMatch(/was accepted already/)
  })

  it('a revoked invitation cannot be accepted; revoking twice is refused; an unknown id is 404', async () => {
    const inv = await owner.users.invite({ email: `three-${kind}@inv.test`, role: 'viewer' })
    const revoked = await owner.users.revokeInvite(inv.id)
    expect(revoked).toMatchObject({ id: inv.id, state: 'revoked', revoked_by: expect.stringMatching(/^user:/) })
    const e = await rejects(h.client().acceptInvite(inv.token, PASSWORD), 'unauthorized')
    expect(e.message).toMatch(/revoked/)
    expect((await rejects(owner.users.revokeInvite(inv.id), 'conflict')).message).toMatch(/was revoked already/)
    await rejects(owner.users.revokeInvite('00000000-0000-4000-8000-000000000000'), 'not_found')
    expect((await owner.users.invitations()).map((i) => i.id)).not.toContain(inv.id)
    const events = await owner.events.list({ type: 'user.invitation_revoked' })
    expect(events.data.find((x) => x.object_id === inv.id)?.data).toMatchObject({ state: 'revoked', email: inv.email })
    expect(JSON.stringify(events.data)).not.toContain(inv.token.slice(4))
  })

  it('an expired invitation is listed as expired with --all, cannot be accepted nor revoked', async () => {
    const inv = await owner.users.invite({ email: `four-${kind}@inv.test`, role: 'viewer' })
    await h.store.db.updateTable('user_invitations').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', inv.id).execute()
    expect((await owner.users.invitations()).map((i) => i.id)).not.toContain(inv.id)
    expect((await owner.users.invitations({ all: true })).find((i) => i.id === inv.id)?.state).toBe('expired')
    expect((await rejects(h.client().acceptInvite(inv.token, PASSWORD), 'unauthorized')).message).toMatch(/expired/)
    expect((await rejects(owner.users.revokeInvite(inv.id), 'conflict')).message).toMatch(/was expired already/)
  })

  it("inviting another company's user answers as for an unknown email; accepting tells only who knows their password", async () => {
    const other = await h.tenant('Elsewhere')
    const invite = (email: string) =>
      h.raw('POST', '/api-v1/users/invitations', {
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, role: 'viewer' }),
      })
    const shape = async (r: Response) => {
      const body = (await r.json()) as { data: Record<string, unknown> }
      return { status: r.status, keys: Object.keys(body.data).sort(), role: body.data.role, email: body.data.email }
    }
    const unknown = await shape(await invite(`nobody-${kind}@inv.test`))
    const taken = await invite(other.email)
    const answer = await shape(taken.clone())
    expect(answer).toEqual({ ...unknown, email: other.email })
    expect(answer.status).toBe(201)
    const token = ((await taken.json()) as { data: { token: string } }).data.token
    // The inviter holds the token: with any password but that user's, it is an invalid invitation.
    const spent = await rejects(h.client().acceptInvite(token, PASSWORD), 'unauthorized')
    expect(spent.message).toMatch(/not valid/)
    expect(spent.message).not.toMatch(/exists|another company/)
    // That user, with their own password, is told why.
    expect((await rejects(h.client().acceptInvite(token, other.password), 'conflict')).message).toMatch(/another company/)
    // A user of the inviter's own company is still named.
    await rejects(owner.users.invite({ email: a.email, role: 'viewer' }), 'conflict')
  })
})
