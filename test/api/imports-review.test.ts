/**
 * Review imports (/api-v1/imports/{id}/pending, apply, discard): rows staged on a review batch stay
 * out of transactions, reports and balances until applied; apply lands them once, discard drops
 * them, an expired batch is refused and swept, a month closed meanwhile is checked at apply time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { sweepExpiredReviews } from '../../src/domain/imports/review.js'
import { storeTransactionBatch } from '../../src/domain/transactions/create.js'
import { DEFAULT_DATE_WINDOW } from '../../src/domain/transactions/plausibility.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'
import { day, M, pendingReview, type StagedRow, stagedRows } from '../helpers/review-batches.js'

async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('review imports over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Review')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const row = stagedRows('review', '50')
  /** A review batch of `rows`, staged (those refused named as rejects) and ended pending. */
  const review = (cl: Client, account: string, rows: StagedRow[]) => pendingReview(cl, account, rows, 'review.csv')

  const descriptions = async (cl: Client, account: string) =>
    (await cl.transactions.list({ bank_account_id: account, limit: 100 })).data.map((t) => t.description).sort()

  it('keeps staged rows out of transactions, reports and balances; apply lands them once, a second apply creates nothing', async () => {
    const rows = [row(a.accountId, 1), row(a.accountId, 2), row(a.accountId, 3, { description: '' })]
    const { id, staged, done } = await review(c, a.accountId, rows)
    expect(staged.staged).toEqual([0, 1])
    expect(staged.errors.map((e) => [e.index, e.details?.[0]?.path])).toEqual([[2, 'description']])
    expect(done).toMatchObject({ state: 'pending', counts: { created: 0, rejected: 1 } })
    expect(done.rejects).toEqual([{ line: 4, reason: expect.stringContaining('description') }])

    const page = await c.imports.pending(id)
    expect(page.data.staged).toBe(2)
    expect(page.data.rows.map((r) => [r.line, r.transaction.description])).toEqual([
      [2, 'review 1'],
      [3, 'review 2'],
    ])
    expect(Date.parse(page.data.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000)

    // Invisible until applied: no transaction, no report figure, no balance.
    expect(await descriptions(c, a.accountId)).toEqual([])
    const before = await c.reports.summary({ from: day(1), to: day(28), bank_account_id: a.accountId })
    expect(before).toMatchObject({ transaction_count: 0, expenses: 0 })
    expect((await c.accounts.get(a.accountId)).current_balance).toBe(0)

    const first = await c.imports.apply(id)
    expect(first.applied).toEqual({ created: 2, existing: 0, reconciled: 0, rejected: 0 })
    expect(first).toMatchObject({ state: 'completed', counts: { created: 2, existing: 0, rejected: 1 } })
    expect(await descriptions(c, a.accountId)).toEqual(['review 1', 'review 2'])
    const after = await c.reports.summary({ from: day(1), to: day(28), bank_account_id: a.accountId })
    expect(after).toMatchObject({ transaction_count: 2, expenses: 4 })
    expect((await c.accounts.get(a.accountId)).current_balance).toBe(-4)

    const second = await c.imports.apply(id)
    expect(second.applied).toEqual({ created: 0, existing: 0, reconciled: 0, rejected: 0 })
    expect(second.counts).toEqual(first.counts)
    expect(await descriptions(c, a.accountId)).toEqual(['review 1', 'review 2'])
    // Applied rows are no longer pending, and they cannot be edited.
    expect((await c.imports.pending(id)).data.rows).toEqual([])
    await refused(c.imports.setRow(id, 2, { category: 'Late' }), 'conflict')

    const events = await c.request<Array<{ type: string; object_id: string; data: Record<string, unknown> }>>('GET', '/api-v1/events', {
      query: { type: 'import.pending,import.applied' },
    })
    expect(events.data.filter((e) => e.object_id === id).map((e) => [e.type, e.data.staged ?? e.data.created])).toEqual([
      ['import.pending', 2],
      ['import.applied', 2],
    ])
  })

  it('an apply killed between a write and its count: the next apply counts every row the batch created', async () => {
    const acct = (await c.accounts.create({ name: 'Lost count', account_type: 'checking', currency_code: 'USD' })).id
    const rows = Array.from({ length: 6 }, (_, i) => row(acct, 100 + i))
    const { id } = await review(c, acct, rows)
    // What a killed apply leaves: its first rows written for the batch, their count never added.
    const me = await c.keys.me()
    const actor = { companyId: a.companyId, kind: 'api_key' as const, keyId: me.id, scopes: me.scopes }
    const written = await storeTransactionBatch(
      h.store,
      actor as never,
      rows.slice(0, 4).map((r) => r.transaction),
      { now: new Date(), window: DEFAULT_DATE_WINDOW, minimal: true, matchStatementLines: true, importBatch: id },
    )
    expect(written.created).toHaveLength(4)
    expect((await c.imports.get(id)).counts.created).toBe(0)
    const done = await c.imports.apply(id)
    expect(done.applied).toMatchObject({ created: 2, existing: 4 })
    expect(done).toMatchObject({ state: 'completed', counts: { created: 6, existing: 0, rejected: 0 } })
  })

  it('edits a pending row by line; applies rows already there as existing; two applies at once converge', async () => {
    const acct = (await c.accounts.create({ name: 'Edits', account_type: 'checking', currency_code: 'USD' })).id
    // Row 1 is on the account before the review: staged as a duplicate, not kept.
    await c.transactions.batchMinimal([row(acct, 1).transaction])
    const { id, staged } = await review(c, acct, [row(acct, 1), row(acct, 2), row(acct, 3), row(acct, 4)])
    expect(staged.duplicates.map((d) => d.index)).toEqual([0])
    expect(staged.staged).toEqual([1, 2, 3])

    const set = await c.imports.setRow(id, 3, { category: 'Travel', merchant_name: 'Rail Co', description: 'train' })
    expect(set.transaction).toMatchObject({ category: 'Travel', merchant_name: 'Rail Co', description: 'train' })
    const cleared = await c.imports.setRow(id, 3, { merchant_name: null })
    expect(cleared.transaction.merchant_name).toBeUndefined()
    const bad = await refused(c.imports.setRow(id, 3, { description: '' }), 'validation_error')
    expect(bad.details?.map((d) => d.path)).toContain('description')
    await refused(c.imports.setRow(id, 99, { category: 'X' }), 'not_found')
    // Imported directly meanwhile: the apply finds it there.
    await c.transactions.batchMinimal([row(acct, 4).transaction])

    const [x, y] = await Promise.all([c.imports.apply(id), c.imports.apply(id)])
    expect(x.applied.created + y.applied.created).toBe(2)
    const done = await c.imports.get(id)
    expect(done).toMatchObject({ state: 'completed', counts: { created: 2, existing: 1, rejected: 0 } })
    const list = (await c.transactions.list({ bank_account_id: acct, limit: 100 })).data
    expect(list.map((t) => t.description).sort()).toEqual(['review 1', 'review 3', 'review 4', 'train'])
    expect(list.find((t) => t.description === 'train')).toMatchObject({ category: 'Travel', merchant_name: null })
    const applied = await c.request<Array<{ object_id: string }>>('GET', '/api-v1/events', { query: { type: 'import.applied' } })
    expect(applied.data.filter((e) => e.object_id === id)).toHaveLength(1)
  })

  it('discards a pending batch; refuses apply once it is discarded or expired; the sweep drops expired rows', async () => {
    const acct = (await c.accounts.create({ name: 'Drops', account_type: 'checking', currency_code: 'USD' })).id
    const gone = await review(c, acct, [row(acct, 1)])
    const discarded = await c.imports.discard(gone.id)
    expect(discarded.state).toBe('discarded')
    expect((await c.imports.discard(gone.id)).state).toBe('discarded')
    expect((await c.imports.pending(gone.id)).data.rows).toEqual([])
    await refused(c.imports.apply(gone.id), 'conflict')
    expect(await descriptions(c, acct)).toEqual([])

    const old = await review(c, acct, [row(acct, 2), row(acct, 3)])
    const past = new Date(Date.now() - 1000).toISOString()
    await h.store.db.updateTable('import_reviews').set({ expires_at: past }).where('batch_id', '=', old.id).execute()
    const e = await refused(c.imports.apply(old.id), 'conflict')
    expect(e.message).toContain('expired')
    expect(e.message).toContain('--review')
    await refused(c.imports.setRow(old.id, 3, { category: 'X' }), 'conflict')
    expect(await sweepExpiredReviews(h.store, new Date())).toBeGreaterThanOrEqual(1)
    expect((await c.imports.get(old.id)).state).toBe('expired')
    expect((await c.imports.pending(old.id)).data.rows).toEqual([])
    expect((await refused(c.imports.apply(old.id), 'conflict')).message).toContain('expired')
    expect(await descriptions(c, acct)).toEqual([])

    // A review stopped midway keeps its state; past the expiry the sweep drops its staged rows all the same.
    const stopped = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'stopped.csv', options: { review: true } })
    await c.imports.stage(stopped.id, { rows: [row(acct, 7)] })
    await c.imports.finish(stopped.id, { state: 'interrupted' })
    await h.store.db.updateTable('import_reviews').set({ expires_at: past }).where('batch_id', '=', stopped.id).execute()
    await sweepExpiredReviews(h.store, new Date())
    expect((await c.imports.get(stopped.id)).state).toBe('interrupted')
    expect((await c.imports.pending(stopped.id)).data.rows).toEqual([])
    const other2 = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'stopped2.csv', options: { review: true } })
    await c.imports.stage(other2.id, { rows: [row(acct, 8)] })
    await c.imports.finish(other2.id, { state: 'failed' })
    expect((await c.imports.discard(other2.id)).state).toBe('discarded')
    expect((await c.imports.pending(other2.id)).data.rows).toEqual([])

    // Not a review batch: nothing to stage, apply or end pending.
    const plain = await c.imports.create({ file_name: 'plain.csv', bank_account_id: acct })
    await refused(c.imports.stage(plain.id, { rows: [row(acct, 5)] }), 'conflict')
    await refused(c.imports.finish(plain.id, { state: 'pending' }), 'conflict')
    await refused(c.imports.apply(plain.id), 'conflict')
    // Another company's batch is not found.
    const other = await h.tenant('Elsewhere')
    const res = await h.raw('POST', `/api-v1/imports/${old.id}/apply`, { headers: { 'x-api-key': other.key } })
    expect(res.status).toBe(404)
  })

  it('takes a batch of rows as large as a batch create does (over 1 MiB of JSON)', async () => {
    const acct = (await c.accounts.create({ name: 'Large', account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'large.csv', options: { review: true } })
    const rows = Array.from({ length: 3000 }, (_, i) => row(acct, i, { original_description: `${'x'.repeat(400)} ${i}` }))
    expect(JSON.stringify({ rows }).length).toBeGreaterThan(1024 * 1024)
    const staged = await c.imports.stage(b.id, { rows })
    expect([staged.staged.length, staged.errors]).toEqual([3000, []])
    await c.imports.discard(b.id)
  })

  it('refuses a malformed staged row naming its field, staging nothing; a row sent again keeps the first', async () => {
    const acct = (await c.accounts.create({ name: 'Shapes', account_type: 'checking', currency_code: 'USD' })).id
    const b = await c.imports.create({ kind: 'csv', bank_account_id: acct, file_name: 'shapes.csv', options: { review: true } })
    const good = row(acct, 1)
    const paths = async (rows: unknown[]) =>
      ((await refused(c.imports.stage(b.id, { rows } as never), 'validation_error')).details ?? []).map((d) => d.path)
    expect(await paths([good, { ...row(acct, 2), line: 0 }])).toEqual(['rows.1.line'])
    expect(await paths([{ ...good, line: 2.5 }])).toEqual(['rows.0.line'])
    expect(await paths([good, good, { line: 4, transaction: [] }])).toEqual(['rows.2.transaction'])
    expect(await paths([{ ...good, extra: 1 }])).toEqual(['rows.0.extra'])
    expect(await paths([good, 'row'])).toEqual(['rows.1'])
    expect((await c.imports.pending(b.id)).data.rows).toEqual([])
    await c.imports.stage(b.id, { rows: [good] })
    // A retry of the same line with other fields changes nothing: the row staged first stays.
    await c.imports.stage(b.id, { rows: [{ ...good, transaction: { ...good.transaction, description: 'changed' } }] })
    expect((await c.imports.pending(b.id)).data.rows.map((r) => [r.line, r.transaction.description])).toEqual([[2, 'review 1']])
    await c.imports.discard(b.id)
  })

  it('checks locks at apply time: rows of a month closed since the review are rejected by line, the others land', async () => {
    const t = await h.tenant('Locked')
    const tc = h.client({ apiKey: t.key })
    const rows = [row(t.accountId, 1), { ...row(t.accountId, 2), line: 10 }]
    rows[1].transaction.transaction_date = new Date().toISOString().slice(0, 10)
    const { id } = await review(tc, t.accountId, rows)
    await h.client({ token: t.token }).close.month(M, { force: true, reason: 'review test' })
    const r = await tc.imports.apply(id)
    expect(r.applied).toMatchObject({ created: 1, rejected: 1 })
    expect(r.counts).toMatchObject({ created: 1, rejected: 1, existing: 0 })
    expect(r.rejects).toEqual([{ line: 2, reason: expect.stringMatching(/closed|lock/) }])
    expect(await descriptions(tc, t.accountId)).toEqual(['review 2'])
  })
})
