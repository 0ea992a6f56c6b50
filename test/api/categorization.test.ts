/**
 * Categorization through the service (both transports, both stores): imported rows get the
 * model's category when it is confident enough, calibrated on held-out rows; rules win; a manual
 * change clears the score and teaches the model; review lists what needs a person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { EMBEDDED_BASE_URL, openEmbedded } from '../../src/embedded/embedded.js'
import { AppError } from '../../src/kernel/errors.js'
import { generateDataset, type LabelledTransaction } from '../../src/domain/categorization/dataset.js'
import type { CreateTransactionRequest, Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, STORES, type Harness, type Tenant } from '../helpers/harness.js'
import { labelledRequest } from '../helpers/labelled-requests.js'

const data = generateDataset({ size: 3000, seed: 11, start: '2026-01-01' })
const training = data.slice(0, 2400)
const heldOut = data.slice(2400)

/** The shared labelled request, whose labelled rows here carry their accounting and cash-flow categories too. */
function request(accountId: string, t: LabelledTransaction, labelled: boolean): CreateTransactionRequest {
  const r = labelledRequest(accountId, t, labelled)
  if (!labelled) return r
  return {
    ...r,
    accounting_category: t.accounting_category as CreateTransactionRequest['accounting_category'],
    cash_flow_category: t.cash_flow_category as CreateTransactionRequest['cash_flow_category'],
  }
}

async function batches(c: Client, items: CreateTransactionRequest[]): Promise<Transaction[]> {
  const out: Transaction[] = []
  for (let i = 0; i < items.length; i += 1000) {
    const r = await c.transactions.batch(items.slice(i, i + 1000))
    expect(r.errors).toEqual([])
    out.push(...r.created)
  }
  return out
}

describe.each(MATRIX)('categorization over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let c: Client
  let imported: Transaction[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    b = await h.tenant('Beta')
    c = h.client({ apiKey: a.key })
    await batches(
      c,
      training.map((t) => request(a.accountId, t, true)),
    )
    imported = await batches(
      c,
      heldOut.map((t) => request(a.accountId, t, false)),
    )
  }, 240_000)
  afterAll(async () => {
    await h?.close()
  })

  it('fills the category of imported rows when the calibrated score reaches the threshold, and is right at least 90% of those times', () => {
    expect(imported).toHaveLength(heldOut.length)
    const confident = imported.filter((t) => t.category !== null)
    // Coverage: a good share of the held-out rows is categorized; the rest keep their score for review.
    expect(confident.length).toBeGreaterThan(heldOut.length * 0.3)
    let right = 0
    imported.forEach((t, i) => {
      expect(t.ai_confidence_score).not.toBeNull()
      if (t.category === null) {
        expect(t.ai_confidence_score).toBeLessThan(0.9)
        expect(t.accounting_category).toBeNull()
        return
      }
      expect(t.ai_confidence_score).toBeGreaterThanOrEqual(0.9)
      if (
        t.category === heldOut[i].category &&
        t.accounting_category === heldOut[i].accounting_category &&
        t.cash_flow_category === heldOut[i].cash_flow_category
      )
        right++
    })
    expect(right / confident.length).toBeGreaterThanOrEqual(0.9)
  })

  it('reports the model: trained on the labelled rows only, with a calibration table', async () => {
    const m = await c.categorization.model()
    // Every labelled row is an example; the last full training saw most of them, the rest came incrementally.
    expect(m.examples).toBe(training.length)
    expect(m.trained_on).toBeLessThanOrEqual(m.examples)
    expect(m.trained_on).toBeGreaterThanOrEqual(m.examples / 2)
    expect(m.labels).toBe(new Set(training.map((t) => t.category)).size)
    expect(m.threshold).toBe(0.9)
    expect(m.auto_categorize).toBe(true)
    expect(m.calibration.reduce((n, bin) => n + bin.count, 0)).toBeGreaterThan(0)
  })

  it('explains a suggestion by its words, and keeps tenants apart', async () => {
    const t = imported.find((x) => x.category !== null) as Transaction
    const s = await c.categorization.suggestion(t.id)
    expect(s).toMatchObject({ source: 'model', category: t.category })
    expect(s?.explanation.length).toBeGreaterThan(0)
    const other = h.client({ apiKey: b.key })
    const e = await other.categorization.suggestion(t.id).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).status).toBe(404)
    expect((await other.categorization.model()).examples).toBe(0)
  })

  it('a manual change clears the score, and corrections teach the model at once', async () => {
    const lunch = (n: number): CreateTransactionRequest => ({
      bank_account_id: a.accountId,
      transaction_date: '2026-06-01',
      description: `QUOKKA COWORK SPACE ${n}`,
      amount: '-250.00',
    })
    const [first, second] = await batches(c, [lunch(1), lunch(2)])
    expect(first.category === 'Coworking').toBe(false)
    const fixed = await c.transactions.update(first.id, {
      category: 'Coworking',
      accounting_category: 'operating_expenses',
      cash_flow_category: 'operations',
    })
    expect(fixed.ai_confidence_score).toBeNull()
    expect(fixed.category).toBe('Coworking')
    // A bulk correction of more rows of the same merchant: the model now suggests the new category.
    const more = await batches(c, [3, 4, 5, 6].map(lunch))
    await c.transactions.bulkUpdate({
      transaction_ids: [second.id, ...more.map((t) => t.id)],
      updates: { category: 'Coworking', accounting_category: 'operating_expenses', cash_flow_category: 'operations' },
    })
    const [next] = await batches(c, [lunch(7)])
    const s = await c.categorization.suggestion(next.id)
    expect(s?.category).toBe('Coworking')
    expect(s?.explanation.map((e) => e.token).join(' ')).toMatch(/quokka|cowork/)
    const m = await c.categorization.model()
    expect(m.examples).toBe(training.length + 6)
  })

  it('review lists the uncategorized and low-confidence rows with suggestions; accepting one takes it off', async () => {
    const page = await c.categorization.review({ limit: 5 })
    const waiting = imported.filter((t) => t.category === null).length
    expect(page.pagination?.total).toBeGreaterThanOrEqual(waiting)
    expect(page.data).toHaveLength(5)
    for (const item of page.data) expect(item.transaction.category === null || (item.transaction.ai_confidence_score ?? 1) < 0.9).toBe(true)
    const first = page.data[0]
    const s = first.suggestion
    expect(s).not.toBeNull()
    await c.transactions.update(first.transaction.id, {
      category: s?.category,
      accounting_category: (s?.accounting_category ?? undefined) as never,
      cash_flow_category: (s?.cash_flow_category ?? undefined) as never,
    })
    const after = await c.categorization.review({ limit: 5 })
    expect(after.pagination?.total).toBe((page.pagination?.total ?? 0) - 1)
    expect(after.data.map((i) => i.transaction.id)).not.toContain(first.transaction.id)
    // Paging by cursor walks on without repeats.
    const second = await c.categorization.review({ limit: 5, cursor: after.pagination?.next_cursor ?? undefined })
    expect(second.data.map((i) => i.transaction.id).filter((id) => after.data.some((i) => i.transaction.id === id))).toEqual([])
    // Model-categorized rows come in with a bound above their score.
    const strict = await c.categorization.review({ limit: 1, below: 1 })
    expect(strict.pagination?.total).toBeGreaterThan(after.pagination?.total ?? 0)
  })

  it("settings: the threshold and auto-categorization are the company's; bad values are refused naming the field", async () => {
    const e = await c.categorization.settings({ threshold: 1.5 }).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).status).toBe(400)
    expect(JSON.stringify((e as AppError).details)).toContain('threshold')
    const other = h.client({ apiKey: b.key })
    await other.categorization.settings({ auto_categorize: false })
    expect((await c.categorization.model()).auto_categorize).toBe(true)
    await c.categorization.settings({ auto_categorize: false })
    const [plain] = await batches(
      c,
      [request(a.accountId, heldOut[0], false)].map((r) => ({ ...r, transaction_date: '2026-07-01' })),
    )
    expect(plain.category).toBeNull()
    expect(plain.ai_confidence_score).toBeNull()
    const s = await c.categorization.settings({ auto_categorize: true, threshold: 0.5 })
    expect(s).toMatchObject({ auto_categorize: true, threshold: 0.5 })
    const [lower] = await batches(
      c,
      [request(a.accountId, heldOut[1], false)].map((r) => ({ ...r, transaction_date: '2026-07-02' })),
    )
    if (lower.ai_confidence_score !== null && lower.ai_confidence_score >= 0.5) expect(lower.category).not.toBeNull()
    await c.categorization.settings({ threshold: 0.9 })
  })

  it('a row that arrives with its category keeps it, with no score', async () => {
    const [t] = await batches(c, [{ ...request(a.accountId, heldOut[2], false), category: 'Hand picked', transaction_date: '2026-07-03' }])
    expect(t.category).toBe('Hand picked')
    expect(t.ai_confidence_score).toBeNull()
  })
})

describe.each(MATRIX)('rules and statements with the model over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    c = h.client({ apiKey: a.key })
    await batches(
      c,
      training.map((t) => request(a.accountId, t, true)),
    )
  }, 240_000)
  afterAll(async () => {
    await h?.close()
  })

  it('rules win over the model, and fill only what the row left empty', async () => {
    const confident = heldOut.find((t) => t.merchant_name) as LabelledTransaction
    const rule = await c.request<{ id: string }>('POST', '/api-v1/categorization-rules', {
      body: {
        name: 'Pinned',
        conditions: { description_equals: confident.description },
        actions: { category: 'Pinned by rule', accounting_category: 'other_expense', tags: ['ruled'] },
      },
    })
    const [t] = await batches(c, [request(a.accountId, confident, false)])
    expect(t).toMatchObject({
      category: 'Pinned by rule',
      accounting_category: 'other_expense',
      ai_confidence_score: null,
      tags: ['ruled'],
    })
    const s = await c.categorization.suggestion(t.id)
    expect(s).toMatchObject({ source: 'rule', category: 'Pinned by rule', rule_ids: [rule.data.id] })
    // A row that brings its own category keeps it; the rule still adds its tag.
    const [own] = await batches(c, [{ ...request(a.accountId, confident, false), category: 'Mine', transaction_date: '2026-08-01' }])
    expect(own).toMatchObject({ category: 'Mine', tags: ['ruled'] })
  })

  it('lines of an uploaded statement are categorized like imported rows', async () => {
    const lines = heldOut.slice(100, 160)
    const csv = [
      'Date,Description,Amount',
      ...lines.map((t) => `${t.transaction_date},"${t.description.replace(/"/g, '""')}",${t.amount}`),
    ].join('\n')
    const st = await c.statements.upload({
      bank_account_id: a.accountId,
      file_name: 'october.csv',
      format: 'csv',
      content_base64: Buffer.from(csv).toString('base64'),
    })
    const done = await c.statements.wait(st.id)
    expect(done.status).toBe('completed')
    const rows = (await c.statements.transactions(st.id, { limit: 100 })).data
    expect(rows).toHaveLength(lines.length)
    expect(rows.every((t) => t.ai_confidence_score !== null)).toBe(true)
    const categorized = rows.filter((t) => t.category !== null)
    expect(categorized.length).toBeGreaterThan(0)
    for (const t of categorized) expect(t.ai_confidence_score).toBeGreaterThanOrEqual(0.9)
  })
})

describe.each(STORES)('two processes on one %s database', (storeKind) => {
  it('a correction made by one process reaches the model of the other before its next prediction', async () => {
    const h = await createHarness('embedded', storeKind)
    const other = await openEmbedded(h.database, { poolSize: 2 })
    try {
      const a = await h.tenant('Acme')
      const c1 = h.client({ apiKey: a.key })
      const c2 = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: other.fetch, apiKey: a.key, maxRetries: 0 })
      await batches(
        c1,
        training.slice(0, 600).map((t) => request(a.accountId, t, true)),
      )
      const row = (n: number): CreateTransactionRequest => ({
        bank_account_id: a.accountId,
        transaction_date: '2026-09-01',
        description: `WOMBAT LOGISTICS ${n}`,
        amount: '-80.00',
      })
      const rows = await batches(c1, [1, 2, 3, 4, 5].map(row))
      const before = (await c2.categorization.model()).examples
      expect(before).toBe(600)
      expect((await c2.categorization.suggestion(rows[0].id))?.category).not.toBe('Freight')
      // Process 1 corrects; process 2's next answer is from a model that has seen the correction.
      await c1.transactions.bulkUpdate({
        transaction_ids: rows.slice(1).map((t) => t.id),
        updates: { category: 'Freight', accounting_category: 'cost_of_goods_sold', cash_flow_category: 'operations' },
      })
      expect((await c2.categorization.suggestion(rows[0].id))?.category).toBe('Freight')
      expect((await c2.categorization.model()).examples).toBe(604)
    } finally {
      await other.close()
      await h.close()
    }
  }, 120_000)
})

describe.each(MATRIX)('score bounds over %s on %s', (kind, storeKind) => {
  it('tiny and long scores are taken at the 3 decimals scores have (PostgreSQL keeps them in a real)', async () => {
    const h = await createHarness(kind, storeKind)
    try {
      const a = await h.tenant('Acme')
      const c = h.client({ apiKey: a.key })
      expect((await c.categorization.review({ below: 5e-324 })).pagination?.total).toBe(0)
      expect((await c.categorization.settings({ threshold: 5e-324 })).threshold).toBe(0)
      expect((await c.categorization.settings({ threshold: 0.87654 })).threshold).toBe(0.877)
    } finally {
      await h.close()
    }
  })
})
