/**
 * Proposals in the audit chain (docs/audit.md, "Proposals in the chain") through both transports on
 * both stores: a proposal's request and each decision (approved, rejected, failed) chain an entry
 * with its actor; `verify` finds a proposal changed, inserted or deleted by SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const PASSWORD = 'a long enough password'

describe.each(MATRIX)('proposals in the audit chain over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let ownerId: string
  let book: { client: Client; id: string }
  let acc: { client: Client; id: string }

  async function join(email: string, role: string) {
    const inv = await owner.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id }
  }

  const entriesOf = (id: string) =>
    h.store.db
      .selectFrom('audit_entries')
      .select(['actor', 'action', 'changes', 'hash'])
      .where('company_id', '=', a.companyId)
      .where('transaction_id', '=', id)
      .orderBy('id')
      .execute()

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Chained proposals')
    owner = h.client({ token: a.token })
    ownerId = (await owner.users.me()).user?.id ?? ''
    book = await join(`book-${kind}@chain.test`, 'bookkeeper')
    acc = await join(`acc-${kind}@chain.test`, 'accountant')
    await owner.policy.set({ require_approval: ['reopen'] })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('requested, approved, rejected and failed each chain an entry with its actor; verify counts them', async () => {
    await owner.close.month('2025-03', { force: true, reason: 'closing for the test' })
    const first = (await book.client.close.requestReopen('2025-03', 'one')).proposal?.id ?? ''
    const second = (await book.client.close.requestReopen('2025-03', 'two')).proposal?.id ?? ''
    const third = (await book.client.close.requestReopen('2025-03', 'three')).proposal?.id ?? ''
    await acc.client.approvals.reject(third, 'one is enough')
    await acc.client.approvals.approve(first)
    await expect(owner.approvals.approve(second)).rejects.toMatchObject({ code: 'conflict' })
    const actions = async (id: string) => (await entriesOf(id)).map((e) => [e.action, e.actor, JSON.parse(e.changes).state])
    expect(await actions(first)).toEqual([
      ['proposal_requested', `user:${book.id}`, 'pending'],
      ['proposal_approved', `user:${acc.id}`, 'approved'],
    ])
    expect(await actions(second)).toEqual([
      ['proposal_requested', `user:${book.id}`, 'pending'],
      ['proposal_failed', `user:${ownerId}`, 'failed'],
    ])
    expect(await actions(third)).toEqual([
      ['proposal_requested', `user:${book.id}`, 'pending'],
      ['proposal_rejected', `user:${acc.id}`, 'rejected'],
    ])
    for (const e of await entriesOf(first)) expect(e.hash).toMatch(/^[0-9a-f]{64}$/)
    // The policy's own setting was no proposal; these three are (and chained).
    expect(await owner.audit.verify()).toMatchObject({ intact: true, proposals: 3, broken: null })
  })

  it('verify finds a proposal changed by SQL (its effect, or who decided), and is intact once restored', async () => {
    const [p] = await owner.approvals.list({ state: 'approved' })
    const row = await h.store.db.selectFrom('proposals').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow()
    const entry = (await entriesOf(p.id)).length
    expect(entry).toBe(2)
    await h.store.db
      .updateTable('proposals')
      .set({ decided_by: `user:${book.id}` })
      .where('id', '=', p.id)
      .execute()
    const v = await owner.audit.verify()
    expect(v).toMatchObject({ intact: false, broken: { kind: 'proposal_changed', transaction_id: p.id } })
    expect(v.broken?.message).toMatch(new RegExp(`proposal ${p.id} was changed outside finctl`))
    await h.store.db.updateTable('proposals').set({ decided_by: row.decided_by }).where('id', '=', p.id).execute()
    expect((await owner.audit.verify()).intact).toBe(true)
    await h.store.db.updateTable('proposals').set({ effect: '{"month":"2025-01"}' }).where('id', '=', p.id).execute()
    expect((await owner.audit.verify()).broken).toMatchObject({ kind: 'proposal_changed', transaction_id: p.id })
    await h.store.db.updateTable('proposals').set({ effect: row.effect }).where('id', '=', p.id).execute()
    expect((await owner.audit.verify()).intact).toBe(true)
  })

  it('verify finds a proposal inserted or deleted by SQL', async () => {
    const [p] = await owner.approvals.list({ state: 'rejected' })
    const row = await h.store.db.selectFrom('proposals').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow()
    const forged = {
      ...row,
      id: '01900000-0000-7000-8000-000000000001',
      state: 'pending',
      decided_by: null,
      decided_at: null,
      reason: null,
    }
    await h.store.db.insertInto('proposals').values(forged).execute()
    expect((await owner.audit.verify()).broken).toMatchObject({ kind: 'proposal_inserted', transaction_id: forged.id, entry_id: null })
    await h.store.db.deleteFrom('proposals').where('id', '=', forged.id).execute()
    expect((await owner.audit.verify()).intact).toBe(true)
    await h.store.db.deleteFrom('proposals').where('id', '=', p.id).execute()
    expect((await owner.audit.verify()).broken).toMatchObject({ kind: 'proposal_removed', transaction_id: p.id })
    await h.store.db.insertInto('proposals').values(row).execute()
    expect((await owner.audit.verify()).intact).toBe(true)
  })
})
