/**
 * The approval policy's bulk (update and delete), key-write and policy steps (docs/people.md, "Approval policies")
 * through both transports on both stores: each proposed with its full effect, applied by another
 * person exactly as shown, refused when the data moved, never approved by its proposer (not through
 * their key either), never applied twice. A key-write's secret goes to the proposer alone.
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

describe.each(MATRIX)('bulk, key-write and policy proposals over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let ownerId: string
  let book: { client: Client; id: string; token: string }
  let acc: { client: Client; id: string }
  let owner2: { client: Client; id: string }
  let ids: string[]

  async function join(email: string, role: string) {
    const inv = await owner.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id, token: accepted.access_token }
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Steps')
    owner = h.client({ token: a.token })
    ownerId = (await owner.users.me()).user?.id ?? ''
    book = await join(`book-${kind}@steps.test`, 'bookkeeper')
    acc = await join(`acc-${kind}@steps.test`, 'accountant')
    owner2 = await join(`owner2-${kind}@steps.test`, 'owner')
    const rows = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((d, i) => ({
      bank_account_id: a.accountId,
      transaction_date: `2026-05-0${i + 1}`,
      description: d,
      amount: '-10.00',
    }))
    ids = (await owner.transactions.batch(rows)).created.map((t) => t.id)
  })
  afterAll(async () => {
    await h?.close()
  })

  it('bulk takes a threshold: a 400 naming bulk_threshold without one; the policy set', async () => {
    const bad = await rejects(owner.request('PUT', '/api-v1/policy', { body: { require_approval: ['bulk'] } }), 'validation_error')
    expect(bad.details?.[0]?.path).toMatch(/bulk_threshold/)
    await rejects(owner.request('PUT', '/api-v1/policy', { body: { require_approval: ['bulk'], bulk_threshold: 0 } }), 'validation_error')
    const set = await owner.policy.set({ require_approval: ['bulk', 'key-write'], bulk_threshold: 2 })
    expect(set.done).toMatchObject({ require_approval: ['bulk', 'key-write'], bulk_threshold: 2 })
    expect(await owner.policy.get()).toMatchObject({ require_approval: ['bulk', 'key-write'], bulk_threshold: 2 })
  })

  it('a bulk update up to the threshold is done; over it, a proposal listing each row and change', async () => {
    const small = await book.client.transactions.requestBulkUpdate({ transaction_ids: ids.slice(0, 2), updates: { category: 'Small' } })
    expect(small.done?.updated).toBe(2)
    // Asked last row first: the proposal lists the rows in the order asked, whatever order the table holds them in.
    const asked = [ids[2], ids[1], ids[0]]
    const o = await book.client.transactions.requestBulkUpdate({ transaction_ids: asked, updates: { category: 'Office' } })
    expect(o.proposal).toMatchObject({ kind: 'bulk', target: '3 transactions', state: 'pending', proposed_by: `user:${book.id}` })
    const effect = o.proposal?.effect as { rows: number; changed: number; transactions: Array<{ id: string; changes: object }> }
    expect(effect).toMatchObject({ rows: 3, changed: 3, threshold: 2 })
    expect(effect.transactions.map((t) => t.id)).toEqual(asked)
    expect(effect.transactions[2].changes).toEqual({ category: { before: 'Small', after: 'Office' } })
    // Nothing changed yet.
    expect((await owner.transactions.get(ids[2])).category).not.toBe('Office')
    // The proposer cannot approve; the accountant (a reviewer: close, no write) applies it for the bookkeeper.
    await rejects(book.client.approvals.approve(o.proposal?.id ?? ''), 'forbidden')
    const done = await acc.client.approvals.approve(o.proposal?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', decided_by: `user:${acc.id}`, result: { updated: 3 } })
    for (const id of ids.slice(0, 3)) expect((await owner.transactions.get(id)).category).toBe('Office')
    const history = (await owner.transactions.get(ids[0])).history ?? []
    expect(history.at(-1)).toMatchObject({ action: 'bulk_update', actor: `user:${acc.id}` })
    // A replay is refused.
    await rejects(owner.approvals.approve(o.proposal?.id ?? ''), 'conflict')
    await rejects(owner2.client.approvals.approve(o.proposal?.id ?? ''), 'conflict')
  })

  it("a bulk proposal whose rows moved since is refused and failed; the owner's own, not through their key", async () => {
    const o = await owner.transactions.requestBulkUpdate({ transaction_ids: ids.slice(3, 6), updates: { category: 'Travel' } })
    const id = o.proposal?.id ?? ''
    expect((await rejects(owner.approvals.approve(id), 'forbidden')).message).toMatch(/your own/)
    await rejects(h.client({ apiKey: a.key }).approvals.approve(id), 'forbidden')
    await owner.transactions.update(ids[4], { merchant_name: 'Moved meanwhile' })
    const stale = await rejects(owner2.client.approvals.approve(id), 'conflict')
    expect(stale.message).toMatch(new RegExp(`transaction ${ids[4]} changed since`))
    expect(await owner.approvals.get(id)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/changed since/) })
    expect((await owner.transactions.get(ids[3])).category).not.toBe('Travel')
  })

  it('a bulk delete up to the threshold is done; over it, a proposal with each row and the totals, applied once by another person', async () => {
    const made = async (n: number, amount: string) =>
      (
        await owner.transactions.batch(
          Array.from({ length: n }, (_, i) => ({
            bank_account_id: a.accountId,
            transaction_date: `2026-05-1${i}`,
            description: `Del ${amount} ${i}`,
            amount,
          })),
        )
      ).created.map((t) => t.id)
    const small = await made(2, '-1.00')
    expect((await book.client.transactions.requestBulkDelete({ transaction_ids: small })).done?.deleted).toBe(2)
    const rows = await made(3, '-2.50')
    const o = await book.client.transactions.requestBulkDelete({ transaction_ids: rows })
    expect(o.proposal).toMatchObject({
      kind: 'bulk',
      target: 'delete 3 transactions',
      state: 'pending',
      request: { action: 'delete', transaction_ids: rows },
      effect: { action: 'delete', rows: 3, threshold: 2, totals: [{ currency_code: 'USD', rows: 3, amount: -7.5 }] },
    })
    const shown = await acc.client.approvals.get(o.proposal?.id ?? '')
    const listed = (shown.effect as { transactions: Array<{ id: string; amount: number; description: string }> }).transactions
    expect(listed.map((t) => [t.id, t.amount])).toEqual(rows.map((id) => [id, -2.5]))
    // Nothing deleted yet; the proposer cannot approve.
    expect((await owner.transactions.get(rows[0])).id).toBe(rows[0])
    await rejects(book.client.approvals.approve(o.proposal?.id ?? ''), 'forbidden')
    const done = await owner.approvals.approve(o.proposal?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', result: { deleted: 3, transaction_ids: rows } })
    for (const id of rows) await rejects(owner.transactions.get(id), 'not_found')
    const deleted = (await owner.events.list({ type: 'transaction.deleted', limit: 100 })).data
    expect(deleted.filter((e) => rows.includes(e.object_id ?? '')).map((e) => e.actor)).toEqual(rows.map(() => `user:${ownerId}`))
    await rejects(owner.approvals.approve(o.proposal?.id ?? ''), 'conflict')
    await rejects(owner2.client.approvals.approve(o.proposal?.id ?? ''), 'conflict')
    // Proposed again over rows of which one moved since: refused, marked failed, nothing deleted.
    const again = await made(3, '-4.00')
    const p = (await book.client.transactions.requestBulkDelete({ transaction_ids: again })).proposal
    await owner.transactions.update(again[1], { category: 'Moved meanwhile' })
    const stale = await rejects(owner.approvals.approve(p?.id ?? ''), 'conflict')
    expect(stale.message).toMatch(new RegExp(`transaction ${again[1]} changed since the bulk delete was proposed`))
    expect(await owner.approvals.get(p?.id ?? '')).toMatchObject({ state: 'failed' })
    for (const id of again) expect((await owner.transactions.get(id)).id).toBe(id)
    expect((await owner.audit.verify()).intact).toBe(true)
  })

  it("a reviewer's approval stands on the proposer's write: a disabled proposer's waits for one with write", async () => {
    // Under the policy a bookkeeper (who can approve) joins through a proposal another owner approves.
    const invited = (await owner.users.requestInvite({ email: `book2-${kind}@steps.test`, role: 'bookkeeper' })).proposal
    await owner2.client.approvals.approve(invited?.id ?? '')
    const joined = await h.client().acceptInvite(invited?.token ?? '', PASSWORD)
    const book2 = { client: h.client({ token: joined.access_token }), id: joined.user.id }
    const aud = await join(`aud-${kind}@steps.test`, 'auditor')
    const rows = (
      await owner.transactions.batch(
        ['A', 'B', 'C'].map((d, i) => ({
          bank_account_id: a.accountId,
          transaction_date: `2026-05-2${i}`,
          description: `Rev ${d}`,
          amount: '-3.00',
        })),
      )
    ).created.map((t) => t.id)
    const id = (await book2.client.transactions.requestBulkDelete({ transaction_ids: rows })).proposal?.id ?? ''
    // The auditor holds neither write nor close.
    await rejects(aud.client.approvals.approve(id), 'forbidden')
    await owner.users.disable(book2.id)
    const refused = await rejects(acc.client.approvals.approve(id), 'forbidden')
    expect(refused.message).toMatch(/no longer holds the write scope/)
    expect(await owner.approvals.get(id)).toMatchObject({ state: 'pending' })
    for (const r of rows) expect((await owner.transactions.get(r)).id).toBe(r)
    expect(await owner.approvals.approve(id)).toMatchObject({ state: 'approved', result: { deleted: 3 } })
  })

  it('a key with a write scope is a proposal; its secret goes to the proposer alone and works once approved', async () => {
    expect((await owner.keys.requestCreate({ name: 'reader', scopes: ['read'] })).done?.key).toMatch(/^fd/)
    const o = await owner.keys.requestCreate({ name: 'writer', scopes: ['read', 'write'] })
    const p = o.proposal
    expect(p).toMatchObject({ kind: 'key-write', target: 'writer', state: 'pending', effect: { scopes: ['read', 'write'] } })
    const secret = p?.key ?? ''
    expect(secret).toMatch(/^fd/)
    // Nobody else sees the secret or its hash: not in the proposal, its list, its event.
    const shown = JSON.stringify([
      await owner2.client.approvals.get(p?.id ?? ''),
      await owner2.client.approvals.list(),
      await owner.events.list({ type: 'approval.requested' }),
    ])
    expect(shown).not.toContain(secret)
    expect(shown).not.toContain('key_hash')
    // It does not authenticate before approval.
    await rejects(h.client({ apiKey: secret }).keys.me(), 'unauthorized')
    await rejects(owner.approvals.approve(p?.id ?? ''), 'forbidden')
    await rejects(h.client({ apiKey: a.key }).approvals.approve(p?.id ?? ''), 'forbidden')
    await rejects(acc.client.approvals.approve(p?.id ?? ''), 'forbidden')
    const done = await owner2.client.approvals.approve(p?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', result: { name: 'writer', scopes: ['read', 'write'], created_by: ownerId } })
    expect(JSON.stringify(done)).not.toContain(secret)
    expect(await h.client({ apiKey: secret }).keys.me()).toMatchObject({ name: 'writer', scopes: ['read', 'write'] })
    await rejects(owner2.client.approvals.approve(p?.id ?? ''), 'conflict')
    expect((await owner.audit.verify()).intact).toBe(true)
  })

  it('a change of the policy is a proposal; one proposed before another was applied is refused', async () => {
    const first = (await owner.policy.set({ require_approval: ['bulk'], bulk_threshold: 10 })).proposal
    const second = (await owner.policy.set({ require_approval: [] })).proposal
    expect(first).toMatchObject({
      kind: 'policy',
      effect: { before: ['bulk', 'key-write'], after: ['bulk'], bulk_threshold_before: 2, bulk_threshold_after: 10 },
    })
    await rejects(owner.approvals.approve(first?.id ?? ''), 'forbidden')
    await owner2.client.approvals.approve(first?.id ?? '')
    expect(await owner.policy.get()).toMatchObject({ require_approval: ['bulk'], bulk_threshold: 10 })
    const stale = await rejects(owner2.client.approvals.approve(second?.id ?? ''), 'conflict')
    expect(stale.message).toMatch(/policy changed/)
    expect((await owner.policy.get()).require_approval).toEqual(['bulk'])
  })
})
