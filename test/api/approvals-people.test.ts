/**
 * Deciding roles are guarded (docs/people.md, "Approval policies"), through both transports on both
 * stores: under any policy, inviting someone to a role that can approve, or giving one, is a `people`
 * proposal another person approves, so one owner cannot make a second identity that approves their
 * own proposals; the invitation's token is the proposer's and works once approved; a role change is
 * bound to the role the person had; nobody approves their own promotion; other changes are at once.
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

describe.each(MATRIX)('people steps over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let acc: { client: Client; id: string }
  let viewer: { client: Client; id: string }

  async function accept(token: string) {
    const accepted = await h.client().acceptInvite(token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id, role: accepted.user.role }
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('People steps')
    owner = h.client({ token: a.token })
    // Before any policy, invitations are made at once.
    acc = await accept((await owner.users.invite({ email: `acc-${kind}@people.test`, role: 'accountant' })).token)
    viewer = await accept((await owner.users.invite({ email: `viewer-${kind}@people.test`, role: 'viewer' })).token)
    await owner.policy.set({ require_approval: ['reopen'] })
  })
  afterAll(async () => {
    await h?.close()
  })

  it("inviting a second owner under a policy is a proposal: its token works once another person approves; the sock can't approve alone", async () => {
    const sent = await owner.users.requestInvite({ email: `sock-${kind}@people.test`, role: 'owner' })
    expect(sent.done).toBeUndefined()
    const p = sent.proposal
    expect(p).toMatchObject({
      kind: 'people',
      state: 'pending',
      target: `invite sock-${kind}@people.test as owner`,
      effect: { action: 'invite', email: `sock-${kind}@people.test`, role: 'owner' },
    })
    expect(p?.token).toMatch(/^fdi_/)
    // Nobody else sees the token or its hash; it cannot be accepted yet.
    const shown = JSON.stringify([await acc.client.approvals.get(p?.id ?? ''), await owner.events.list({ type: 'approval.requested' })])
    expect(shown).not.toContain(p?.token.slice(4))
    expect(shown).not.toContain('token_hash')
    await rejects(h.client().acceptInvite(p?.token ?? '', PASSWORD), 'unauthorized')
    await rejects(owner.approvals.approve(p?.id ?? ''), 'forbidden')
    await rejects(viewer.client.approvals.approve(p?.id ?? ''), 'forbidden')
    // The accountant reviews it (the owner could have invited without the policy).
    const done = await acc.client.approvals.approve(p?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', result: { email: `sock-${kind}@people.test`, role: 'owner' } })
    const sock = await accept(p?.token ?? '')
    expect(sock.role).toBe('owner')
    const invited = (await owner.events.list({ type: 'user.invited' })).data.find((e) => e.object_id === (done.result as { id: string }).id)
    expect(invited).toMatchObject({ actor: `user:${acc.id}`, data: { approval: { proposal_id: p?.id } } })
    // An invitation to a role that cannot approve is made at once.
    expect((await owner.users.requestInvite({ email: `aud-${kind}@people.test`, role: 'auditor' })).done?.token).toMatch(/^fdi_/)
  })

  it('giving a role that can approve is a proposal, never approved by its subject; a demotion is at once', async () => {
    const p = (await owner.users.requestSetRole(viewer.id, 'bookkeeper')).proposal
    expect(p).toMatchObject({
      kind: 'people',
      effect: { action: 'role', user: { id: viewer.id }, role_before: 'viewer', role_after: 'bookkeeper' },
    })
    expect((await owner.users.list()).find((u) => u.id === viewer.id)?.role).toBe('viewer')
    // The accountant made owner: a proposal, which the accountant may not approve for themselves.
    const promote = (await owner.users.requestSetRole(acc.id, 'owner')).proposal
    expect((await rejects(acc.client.approvals.approve(promote?.id ?? ''), 'forbidden')).message).toMatch(/gives you a role/)
    await acc.client.approvals.reject(promote?.id ?? '', 'not me')
    expect(await acc.client.approvals.approve(p?.id ?? '')).toMatchObject({ state: 'approved', result: { role: 'bookkeeper' } })
    expect((await owner.users.list()).find((u) => u.id === viewer.id)?.role).toBe('bookkeeper')
    // Narrowing is never held back.
    expect((await owner.users.requestSetRole(viewer.id, 'viewer')).done).toMatchObject({ role: 'viewer' })
  })

  it("a role change is bound to the person's role when proposed: changed since, it is 409 and failed", async () => {
    const p = (await owner.users.requestSetRole(viewer.id, 'accountant')).proposal
    await owner.users.setRole(viewer.id, 'auditor')
    const refused = await rejects(acc.client.approvals.approve(p?.id ?? ''), 'conflict')
    expect(refused.message).toMatch(/role changed since it was proposed: viewer then, auditor now/)
    expect(await owner.approvals.get(p?.id ?? '')).toMatchObject({ state: 'failed' })
    expect((await owner.users.list()).find((u) => u.id === viewer.id)?.role).toBe('auditor')
  })
})
