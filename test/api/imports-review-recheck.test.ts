/**
 * What an apply trusts of the review and what it checks again. A review stores its rows parsed under
 * CREATE_REQUEST_SHAPE, and an apply of the same shape lands them without parsing each again; every
 * check a row's landing depends on (the account's state and opening date, the lock date, the rates,
 * the date window) runs at apply time as for a direct import, and rows stored under another shape (or
 * none: a batch staged before 0045) are parsed again. The rows that land are those a direct import makes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { CREATE_REQUEST_SHAPE } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'
import { day, pendingReview, type StagedRow, stagedRows } from '../helpers/review-batches.js'

describe.each(MATRIX)('what an apply checks again, over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Recheck')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const row = stagedRows('recheck', '25')

  async function review(cl: Client, account: string, rows: StagedRow[]) {
    const { id, staged } = await pendingReview(cl, account, rows, 'recheck.csv')
    expect(staged.errors).toEqual([])
    return id
  }

  const account = async (name: string, currency = 'USD') =>
    (await c.accounts.create({ name, account_type: 'checking', currency_code: currency })).id

  const checkedShape = async (id: string) =>
    (await h.store.db.selectFrom('import_reviews').select('checked_shape').where('batch_id', '=', id).executeTakeFirstOrThrow())
      .checked_shape

  it('an account closed since the review: its rows are refused at apply, by line', async () => {
    const acct = await account('Closed later')
    const id = await review(c, acct, [row(acct, 1), row(acct, 2)])
    expect(await checkedShape(id)).toBe(CREATE_REQUEST_SHAPE)
    await c.accounts.update(acct, { status: 'closed' })
    const r = await c.imports.apply(id)
    expect(r.applied).toMatchObject({ created: 0, rejected: 2 })
    expect(r.rejects).toEqual([
      { line: 2, reason: expect.stringContaining('closed') },
      { line: 3, reason: expect.stringContaining('closed') },
    ])
  })

  it('an opening date moved past a row since the review: that row is refused at apply, the other lands', async () => {
    const acct = await account('Opened later')
    const id = await review(c, acct, [row(acct, 1), row(acct, 5)])
    await c.accounts.update(acct, { opening_balance: '0', opening_balance_date: day(4) })
    const r = await c.imports.apply(id)
    expect(r.applied).toMatchObject({ created: 1, rejected: 1 })
    expect(r.rejects).toEqual([{ line: 2, reason: expect.any(String) }])
    expect((await c.transactions.list({ bank_account_id: acct })).data.map((t) => t.description)).toEqual(['recheck 5'])
  })

  it('a lock date moved since the review: rows on or before it are refused at apply', async () => {
    const t = await h.tenant('Recheck lock')
    const tc = h.client({ apiKey: t.key })
    const id = await review(tc, t.accountId, [row(t.accountId, 1), row(t.accountId, 6)])
    await h.store.db
      .updateTable('companies')
      .set({ lock_date: day(3) })
      .where('id', '=', t.companyId)
      .execute()
    try {
      const r = await tc.imports.apply(id)
      expect(r.applied).toMatchObject({ created: 1, rejected: 1 })
      expect(r.rejects).toEqual([{ line: 2, reason: expect.stringMatching(/closed|lock/) }])
    } finally {
      await h.store.db.updateTable('companies').set({ lock_date: null }).where('id', '=', t.companyId).execute()
    }
  })

  it('a rate changed since the review: the rows land at the rate of the apply; a rate gone refuses them', async () => {
    const eur = await account('Euro', 'EUR')
    await c.rates.set(day(1), 'EUR', { rate: '1.1' })
    const id = await review(c, eur, [row(eur, 2, { amount: '-10.00' })])
    await c.rates.set(day(1), 'EUR', { rate: '1.25' })
    const r = await c.imports.apply(id)
    expect(r.applied).toMatchObject({ created: 1, rejected: 0 })
    const [t] = (await c.transactions.list({ bank_account_id: eur })).data
    expect(t).toMatchObject({ exchange_rate: 1.25, exchange_rate_date: day(1), amount: -10 })
    // In the base currency at the apply's rate: 10.00 EUR at 1.25.
    const sum = await c.reports.summary({ from: day(1), to: day(28), bank_account_id: eur })
    expect(sum).toMatchObject({ transaction_count: 1, expenses: 12.5 })

    const gone = await review(c, eur, [row(eur, 3, { amount: '-10.00' })])
    await c.rates.delete(day(1), 'EUR')
    const r2 = await c.imports.apply(gone)
    expect(r2.applied).toMatchObject({ created: 0, rejected: 1 })
    expect(r2.rejects).toEqual([{ line: 4, reason: expect.stringMatching(/rate/) }])
  })

  it('rows stored under another shape (or none) are parsed again at apply: a row the schema refuses is refused by line', async () => {
    for (const shape of [null, CREATE_REQUEST_SHAPE + 1]) {
      const acct = await account(`Other shape ${shape}`)
      const id = await review(c, acct, [row(acct, 1), row(acct, 2)])
      // What a build of another shape may have kept: a row today's schema refuses.
      await h.store.db.updateTable('import_reviews').set({ checked_shape: shape }).where('batch_id', '=', id).execute()
      await h.store.db
        .updateTable('import_pending_rows')
        .set({ body: JSON.stringify({ ...row(acct, 2).transaction, description: '   ', surplus: 1 }) })
        .where('batch_id', '=', id)
        .where('line', '=', 3)
        .execute()
      const r = await c.imports.apply(id)
      expect(r.applied).toMatchObject({ created: 1, rejected: 1 })
      expect(r.rejects).toEqual([{ line: 3, reason: expect.stringMatching(/description|surplus/) }])
    }
  })

  it('rows are kept as parsed and land as a direct batch create of the same requests makes them', async () => {
    // Two companies alike, so that neither's categorizer learns from the other's rows.
    const [x, y] = [await h.tenant('Via review'), await h.tenant('Direct')]
    const [xc, yc] = [h.client({ apiKey: x.key }), h.client({ apiKey: y.key })]
    const extra = {
      description: '  padded  ',
      original_description: ' BANK TEXT ',
      merchant_name: ' Shop ',
      category: ' Groceries ',
      tags: [' a ', 'b', 'b'],
      posted_date: day(8),
    }
    const rows = [row(x.accountId, 1, extra), row(x.accountId, 2), row(x.accountId, 3, { amount: 7, force: true })]
    const id = await review(xc, x.accountId, rows)
    const page = (await xc.imports.pending(id)).data.rows
    expect(page[0].transaction).toMatchObject({ description: 'padded', merchant_name: 'Shop', tags: ['a', 'b', 'b'] })
    // Set keeps a row parsed too.
    const set = await xc.imports.setRow(id, 3, { merchant_name: '  Corner  ' })
    expect(set.transaction.merchant_name).toBe('Corner')
    expect((await xc.imports.apply(id)).applied).toMatchObject({ created: 3 })
    await yc.transactions.batchMinimal(
      rows.map((r, i) => ({ ...r.transaction, bank_account_id: y.accountId, ...(i === 1 ? { merchant_name: '  Corner  ' } : {}) })),
    )
    const shown = async (cl: Client, acct: string) =>
      (await cl.transactions.list({ bank_account_id: acct, limit: 100 })).data
        .map(({ id: _i, bank_account_id: _b, created_at: _c, updated_at: _u, ...t }) => t)
        .sort((p, q) => p.description.localeCompare(q.description))
    const landed = await shown(xc, x.accountId)
    expect(landed).toHaveLength(3)
    expect(landed).toEqual(await shown(yc, y.accountId))
  })
})
