/**
 * Approval policies and proposals (docs/people.md) through both transports on both stores: a
 * bookkeeper's reopen under a policy becomes a proposal (202) that the accountant approves; the
 * proposer never approves their own (not through their key either); a stale proposal fails; two
 * approvals at once apply once; a revert proposed and approved; the policy's own change waits.
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

describe.each(MATRIX)('approvals over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let owner: Client
  let ownerId: string
  let book: { client: Client; id: string; token: string }
  let acc: { client: Client; id: string }

  async function join(email: string, role: string) {
    const inv = await owner.users.invite({ email, role })
    const accepted = await h.client().acceptInvite(inv.token, PASSWORD)
    return { client: h.client({ token: accepted.access_token }), id: accepted.user.id, token: accepted.access_token }
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Approvals')
    owner = h.client({ token: a.token })
    ownerId = (await owner.users.me()).user?.id ?? ''
    book = await join('book@approvals.test', 'bookkeeper')
    acc = await join('acc@approvals.test', 'accountant')
  })
  afterAll(async () => {
    await h?.close()
  })

  it('the policy is off by default; only the owner sets it; a bookkeeper cannot', async () => {
    expect(await owner.policy.get()).toEqual({ require_approval: [], bulk_threshold: null, updated_by: null, updated_at: null })
    await rejects(book.client.policy.set({ require_approval: [] }), 'forbidden')
    await rejects(acc.client.policy.set({ require_approval: ['reopen'] }), 'forbidden')
    const bad = await rejects(owner.request('PUT', '/api-v1/policy', { body: { require_approval: ['delete'] } }), 'validation_error')
    expect(bad.details?.[0]?.path).toMatch(/require_approval/)
    const set = await owner.policy.set({ require_approval: ['reopen', 'revert'] })
    expect(set.done).toMatchObject({ require_approval: ['reopen', 'revert'], updated_by: `user:${ownerId}` })
  })

  it("the bookkeeper's reopen becomes a proposal (202) that the accountant approves; the month is open", async () => {
    const closed = await acc.client.close.month('2025-03', { force: true, reason: 'closing for the test' })
    const res = await h.raw('POST', '/api-v1/close/2025-03/reopen', {
      headers: { authorization: `Bearer ${book.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'late supplier invoice' }),
    })
    expect(res.status).toBe(202)
    const p = ((await res.json()) as { data: { id: string } }).data
    const shown = await acc.client.approvals.get(p.id)
    expect(shown).toMatchObject({
      kind: 'reopen',
      target: '2025-03',
      state: 'pending',
      proposed_by: `user:${book.id}`,
      proposer_user_id: book.id,
      request: { month: '2025-03', reason: 'late supplier invoice' },
      effect: { month: '2025-03', lock_date: '2025-03-31', lock_date_after: '2025-02-28', close: { id: closed.record.id } },
    })
    // Still closed until approved.
    expect((await owner.close.status('2025-03')).closed).toBe(true)
    expect((await acc.client.approvals.list()).map((x) => x.id)).toContain(p.id)
    expect((await book.client.approvals.list({ mine: true })).map((x) => x.id)).toEqual([p.id])
    expect(await acc.client.approvals.list({ mine: true })).toEqual([])
    // The bookkeeper lacks close: they cannot approve anyone's reopen, nor their own.
    await rejects(book.client.approvals.approve(p.id), 'forbidden')
    const approved = await acc.client.approvals.approve(p.id)
    expect(approved).toMatchObject({ state: 'approved', decided_by: `user:${acc.id}`, result: { action: 'reopen', period: '2025-03' } })
    expect((await owner.close.status('2025-03')).closed).toBe(false)
    const history = await owner.close.history()
    expect(history[0]).toMatchObject({ action: 'reopen', period: '2025-03', reason: 'late supplier invoice', actor: `user:${acc.id}` })
    // Approving twice (a replay) is refused.
    await rejects(acc.client.approvals.approve(p.id), 'conflict')
    const events = await owner.events.list({ type: 'approval.requested,approval.decided' })
    const mine = events.data.filter((e) => e.object_id === p.id)
    expect(mine.map((e) => [e.type, e.actor])).toEqual([
      ['approval.requested', `user:${book.id}`],
      ['approval.decided', `user:${acc.id}`],
    ])
    // The reopen's own event: the approver as actor, the proposal and its proposer named.
    const reopened = (await owner.events.list({ type: 'period.reopened' })).data.find((e) => e.object_id === '2025-03')
    expect(reopened).toMatchObject({
      actor: `user:${acc.id}`,
      data: { approval: { proposal_id: p.id, proposed_by: `user:${book.id}`, approved_by: `user:${acc.id}` } },
    })
  })

  it('the proposer never approves their own: not with a second session, not with a key they created', async () => {
    await owner.close.month('2025-04', { force: true, reason: 'closing for the test' })
    const p = (await owner.close.requestReopen('2025-04', 'owner asks')).proposal
    expect(p?.state).toBe('pending')
    const again = h.client({ token: (await h.client().token(a.email, a.password)).access_token })
    expect((await rejects(again.approvals.approve(p?.id ?? ''), 'forbidden')).message).toMatch(/your own/)
    await rejects(h.client({ apiKey: a.key }).approvals.approve(p?.id ?? ''), 'forbidden')
    expect((await owner.approvals.get(p?.id ?? '')).state).toBe('pending')
    const rejected = await acc.client.approvals.reject(p?.id ?? '', 'not needed')
    expect(rejected).toMatchObject({ state: 'rejected', reason: 'not needed', decided_by: `user:${acc.id}` })
    expect((await owner.close.status('2025-04')).closed).toBe(true)
    await rejects(acc.client.approvals.approve(p?.id ?? ''), 'conflict')
  })

  it('a stale proposal is refused and marked failed; two approvals at once apply once', async () => {
    await owner.close.month('2025-05', { force: true, reason: 'closing for the test' })
    const first = (await book.client.close.requestReopen('2025-05', 'one')).proposal?.id ?? ''
    const second = (await book.client.close.requestReopen('2025-05', 'two')).proposal?.id ?? ''
    const results = await Promise.allSettled([acc.client.approvals.approve(first), owner.approvals.approve(first)])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect((refused.reason as AppError).code).toBe('conflict')
    const reopens = (await owner.close.history()).filter((r) => r.period === '2025-05' && r.action === 'reopen')
    expect(reopens).toHaveLength(1)
    // The month is open now: the second proposal's reopen no longer applies.
    const stale = await rejects(acc.client.approvals.approve(second), 'conflict')
    expect(stale.message).toMatch(/not closed/)
    expect(await owner.approvals.get(second)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/not closed/) })
    expect(await acc.client.approvals.list({ state: 'failed' })).toEqual([expect.objectContaining({ id: second })])
  })

  it('a reopen is bound to the close it undoes: reopened and closed again since, approving it is 409 and failed', async () => {
    const first = await acc.client.close.month('2025-06', { force: true, reason: 'closing for the test' })
    const stale = (await book.client.close.requestReopen('2025-06', 'the first look')).proposal?.id ?? ''
    expect((await acc.client.approvals.get(stale)).effect).toMatchObject({ close: { id: first.record.id }, opens: ['2025-06'] })
    // Meanwhile the month is reopened, gains a row, and is closed again with other figures.
    const other = (await book.client.close.requestReopen('2025-06', 'a late invoice')).proposal?.id ?? ''
    await acc.client.approvals.approve(other)
    await owner.transactions.create({ bank_account_id: a.accountId, transaction_date: '2025-06-20', description: 'Late', amount: '-7.00' })
    const second = await acc.client.close.month('2025-06', { force: true, reason: 'closed again' })
    const refused = await rejects(acc.client.approvals.approve(stale), 'conflict')
    expect(refused.message).toMatch(new RegExp(`reopened and closed again.*record ${second.record.id}.*not record ${first.record.id}`))
    expect(await owner.approvals.get(stale)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/closed again/) })
    expect((await owner.close.status('2025-06')).closed).toBe(true)
    expect((await owner.close.history()).filter((r) => r.period === '2025-06' && r.action === 'reopen')).toHaveLength(1)
  })

  it('a reopen is bound to the lock date it found: a September reopen approved after October was closed is 409 and failed', async () => {
    await acc.client.close.month('2025-09', { force: true, reason: 'closing for the test' })
    const sept = (await book.client.close.requestReopen('2025-09', 'one September invoice')).proposal
    expect(sept?.effect).toMatchObject({ lock_date: '2025-09-30', lock_date_after: '2025-08-31', opens: ['2025-09'] })
    await acc.client.close.month('2025-10', { force: true, reason: 'October closed meanwhile' })
    const refused = await rejects(acc.client.approvals.approve(sept?.id ?? ''), 'conflict')
    expect(refused.message).toMatch(/lock date moved.*2025-09-30.*2025-10-31.*also open 2025-10/)
    expect(await owner.approvals.get(sept?.id ?? '')).toMatchObject({ state: 'failed' })
    expect((await owner.close.status('2025-10')).closed).toBe(true)
    // Proposed now, its effect lists every month it opens.
    const both = (await book.client.close.requestReopen('2025-09', 'September again')).proposal
    expect(both?.effect).toMatchObject({ lock_date: '2025-10-31', lock_date_after: '2025-08-31', opens: ['2025-09', '2025-10'] })
    await acc.client.approvals.reject(both?.id ?? '', 'not now')
  })

  it('a revert under the policy: proposed with its dry run, applied by the accountant as reviewer', async () => {
    const c = book.client
    const acct = (await owner.accounts.create({ name: 'Revert here', account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'rows.csv' })
    await c.transactions.batchMinimal(
      [
        { bank_account_id: acct, transaction_date: '2026-06-02', description: 'One', amount: '-10.00', import_ref: 'p.1' },
        { bank_account_id: acct, transaction_date: '2026-06-03', description: 'Two', amount: '20.00', import_ref: 'p.2' },
      ],
      { importBatch: b.id },
    )
    await c.imports.finish(b.id, { state: 'completed', read: 2 })
    const o = await c.imports.requestRevert(b.id)
    expect(o.proposal).toMatchObject({ kind: 'revert', target: b.id, effect: { dry_run: true, deleted: 2, refused: [] } })
    const twice = (await c.imports.requestRevert(b.id, { include_edited: true })).proposal?.id ?? ''
    expect((await owner.approvals.get(twice)).request).toEqual({ batch_id: b.id, include_edited: true })
    // A dry run is never held back.
    expect((await c.imports.requestRevert(b.id, { dry_run: true })).done).toMatchObject({ dry_run: true, deleted: 2 })
    // The proposer cannot approve; the accountant (close, no write) reviews it for the bookkeeper.
    await rejects(c.approvals.approve(o.proposal?.id ?? ''), 'forbidden')
    expect((await c.transactions.list({ bank_account_id: acct })).data).toHaveLength(2)
    const done = await acc.client.approvals.approve(o.proposal?.id ?? '')
    expect(done).toMatchObject({ state: 'approved', decided_by: `user:${acc.id}`, result: { deleted: 2, dry_run: false } })
    expect((await c.transactions.list({ bank_account_id: acct })).data).toHaveLength(0)
    expect((await c.imports.get(b.id)).state).toBe('reverted')
    expect((await owner.audit.verify()).intact).toBe(true)
    // The second proposal of the same revert is stale now: refused, and failed with the reason.
    const stale = await rejects(owner.approvals.approve(twice), 'conflict')
    expect(stale.message).toMatch(/reverted already/)
    expect(await owner.approvals.get(twice)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/reverted already/) })
  })

  it('a revert is bound to its rows as they were: with --include-edited, a row edited since makes it 409 and failed', async () => {
    const c = book.client
    const acct = (await owner.accounts.create({ name: 'Bound revert', account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'bound.csv' })
    const made = await c.transactions.batchMinimal(
      [
        { bank_account_id: acct, transaction_date: '2026-07-02', description: 'Kept', amount: '-3.00', import_ref: 'b.1' },
        { bank_account_id: acct, transaction_date: '2026-07-03', description: 'Edited', amount: '4.00', import_ref: 'b.2' },
      ],
      { importBatch: b.id },
    )
    await c.imports.finish(b.id, { state: 'completed', read: 2 })
    const rows = (await c.transactions.list({ bank_account_id: acct })).data
    const edited = rows.find((r) => r.description === 'Edited')?.id ?? ''
    expect(made.created).toHaveLength(2)
    await c.transactions.update(edited, { category: 'Before' })
    const p = (await c.imports.requestRevert(b.id, { include_edited: true })).proposal
    expect(p?.effect).toMatchObject({ deleted: 2, versions: { rows: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } })
    // The approver would see the row as it was; it changes before the approval.
    await c.transactions.update(edited, { category: 'After', description: 'Changed after the proposal' })
    const refused = await rejects(acc.client.approvals.approve(p?.id ?? ''), 'conflict')
    expect(refused.message).toMatch(new RegExp(`rows moved since the revert was proposed: ${edited} \\(changed`))
    expect(await owner.approvals.get(p?.id ?? '')).toMatchObject({ state: 'failed', reason: expect.stringContaining(edited) })
    expect((await c.transactions.get(edited)).category).toBe('After')
    expect((await c.imports.get(b.id)).state).not.toBe('reverted')
    // Proposed again, it shows the row as it is now, and approving applies it.
    const again = (await c.imports.requestRevert(b.id, { include_edited: true })).proposal?.id ?? ''
    expect(await acc.client.approvals.approve(again)).toMatchObject({ state: 'approved', result: { deleted: 2 } })
    expect((await c.transactions.list({ bank_account_id: acct })).data).toHaveLength(0)
  })

  it('once a policy is on, changing it is a proposal another owner approves', async () => {
    const p = (await owner.policy.set({ require_approval: [] })).proposal
    expect(p).toMatchObject({ kind: 'policy', effect: { before: ['reopen', 'revert'], after: [] } })
    expect((await owner.policy.get()).require_approval).toEqual(['reopen', 'revert'])
    await rejects(owner.approvals.approve(p?.id ?? ''), 'forbidden')
    await rejects(acc.client.approvals.approve(p?.id ?? ''), 'forbidden')
    // Under the policy a second owner joins through a proposal of its own, which the accountant reviews.
    const invited = (await owner.users.requestInvite({ email: 'owner2@approvals.test', role: 'owner' })).proposal
    await acc.client.approvals.approve(invited?.id ?? '')
    const second = h.client({ token: (await h.client().acceptInvite(invited?.token ?? '', PASSWORD)).access_token })
    expect(await second.approvals.approve(p?.id ?? '')).toMatchObject({ state: 'approved' })
    expect((await owner.policy.get()).require_approval).toEqual([])
  })
})
