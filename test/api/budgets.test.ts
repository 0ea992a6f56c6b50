/**
 * Budgets through both transports on both stores: set (exact, in months, idempotent), list,
 * versions side by side with one current, delete, the closed-month lock, audit entries and events,
 * scopes; and the budget report: budget, rollover, actual, variance, percent used, unbudgeted
 * spending, a budget in another currency, and actuals equal to the summary's and the cash flow's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

async function refused(p: Promise<unknown>, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).status, (e as AppError).message).toBe(status)
  return e as AppError
}

describe.each(MATRIX)('budgets over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant('Budgets')
    c = h.client({ apiKey: t.key })
    const tx = (date: string, amount: string, category: string | undefined, extra: Record<string, string> = {}) => ({
      bank_account_id: t.accountId,
      transaction_date: date,
      description: `${category ?? 'none'} ${date}`,
      amount,
      category,
      ...extra,
    })
    const r = await c.transactions.batch([
      tx('2025-01-03', '-1000.00', 'Rent'),
      tx('2025-02-03', '-1000.00', 'Rent'),
      tx('2025-01-10', '-200.00', 'Food'),
      tx('2025-01-12', '50.00', 'Food'),
      tx('2025-02-14', '-300.00', 'Travel'),
      tx('2025-02-15', '-10.01', undefined),
      tx('2025-03-20', '-500.00', 'Savings', { cash_flow_category: 'transfer' }),
      tx('2025-03-25', '4000.00', 'Sales'),
      tx('2024-09-10', '-70.00', 'Food'),
    ])
    expect(r.errors).toEqual([])
  })
  afterAll(async () => {
    await h?.close()
  })

  it('sets a monthly budget over months exactly, again unchanged, and lists it', async () => {
    const set = await c.budgets.set({ category: 'Rent', monthly: '1200.00', from: '2025-01', to: '2025-03', rollover: true })
    expect(set).toMatchObject({ version: 'original', from: '2025-01', to: '2025-03', created: 3, updated: 0, unchanged: 0 })
    expect(set.budgets.map((b) => [b.month, b.amount, b.currency, b.rollover])).toEqual([
      ['2025-01', 1200, 'USD', true],
      ['2025-02', 1200, 'USD', true],
      ['2025-03', 1200, 'USD', true],
    ])
    const again = await c.budgets.set({ category: 'Rent', monthly: 1200, from: '2025-01', to: '2025-03', rollover: true })
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3 })
    expect(again.budgets.map((b) => b.id)).toEqual(set.budgets.map((b) => b.id))
    await c.budgets.set({ category: 'Food', monthly: '100.00', currency: 'EUR', from: '2025-01', to: '2025-02' })
    const list = await c.budgets.list({ from: '2025-01', to: '2025-12' })
    expect(list.version).toBe('original')
    expect(list.budgets.map((b) => `${b.category} ${b.month} ${b.amount} ${b.currency}`)).toEqual([
      'Food 2025-01 100 EUR',
      'Food 2025-02 100 EUR',
      'Rent 2025-01 1200 USD',
      'Rent 2025-02 1200 USD',
      'Rent 2025-03 1200 USD',
    ])
    // A third decimal, a negative amount and a month that is none: 400 naming the field.
    expect((await refused(c.budgets.set({ category: 'Rent', monthly: '1.005', from: '2025-01' }), 400)).details?.[0].path).toBe('monthly')
    expect((await refused(c.budgets.set({ category: 'Rent', monthly: '-5', from: '2025-01' }), 400)).details?.[0].path).toBe('monthly')
    expect((await refused(c.budgets.set({ category: 'Rent', monthly: '5', from: '2025-13' }), 400)).details?.[0].path).toBe('from')
  })

  it('budget against actual: rollover, variance, percent, unbudgeted, a budget in EUR; actuals equal the summary and the cash flow', async () => {
    await refused(c.budgets.report({ from: '2025-01-01', to: '2025-03-31' }), 400) // no EUR rate yet: named
    await c.rates.set('2025-01-31', 'EUR', { rate: '1.1' })
    const r = await c.budgets.report({ from: '2025-01-01', to: '2025-03-31' })
    expect(r).toMatchObject({ currency: 'USD', version: 'original', interval: 'month' })
    const row = (p: number, cat: string) => r.periods[p].rows.find((x) => x.category === cat)
    expect(row(0, 'Rent')).toMatchObject({ budget: 1200, rollover: 0, actual: 1000, variance: 200, percent_used: 83.3 })
    expect(row(1, 'Rent')).toMatchObject({ budget: 1400, rollover: 200, actual: 1000, variance: 400, percent_used: 71.4 })
    expect(row(2, 'Rent')).toMatchObject({ budget: 1600, rollover: 400, actual: 0, variance: 1600, percent_used: 0 })
    // 100 EUR at 1.1 in January; February takes January's rate (none of its own): an estimate.
    expect(row(0, 'Food')).toMatchObject({
      budget: 110,
      actual: 150,
      variance: -40,
      percent_used: 136.4,
      budget_currency: 'EUR',
      estimate: false,
    })
    expect(row(1, 'Food')).toMatchObject({ budget: 110, actual: 0, estimate: true })
    expect(r.periods[1].unbudgeted).toEqual({
      actual: 310.01,
      by_category: [
        { category: 'Travel', actual: 300 },
        { category: null, actual: 10.01 },
      ],
    })
    // Income is negative spending; a transfer is no spending.
    expect(r.periods[2].unbudgeted.by_category).toEqual([{ category: 'Sales', actual: -4000 }])
    for (const p of r.periods) {
      const summary = await c.reports.summary({ from: p.period_start, to: p.period_end })
      const flow = await c.reports.cashFlow({ from: p.period_start, to: p.period_end })
      for (const x of p.rows) expect(x.actual).toBe(0 - (summary.by_category.find((b) => b.category === x.category)?.amount ?? 0))
      const cents = (n: number) => Math.round(n * 100)
      const spent = p.rows.reduce((s, x) => s + cents(x.actual), 0) + cents(p.unbudgeted.actual)
      expect(spent).toBe(-cents(flow.totals.net))
    }
    const q = await c.budgets.report({ from: '2025-01-01', to: '2025-03-31', interval: 'quarter' })
    expect(q.periods.map((p) => p.label)).toEqual(['2025-Q1'])
    expect(q.periods[0].rows.find((x) => x.category === 'Rent')).toMatchObject({ budget: 3600, actual: 2000, variance: 1600 })
    const y = await c.budgets.report({ from: '2025-01-01', to: '2025-12-31', interval: 'year' })
    expect(y.periods.map((p) => [p.label, p.period_start, p.period_end])).toEqual([['2025', '2025-01-01', '2025-12-31']])
  })

  it('keeps an original and a reforecast side by side, one current', async () => {
    await c.budgets.set({ category: 'Rent', monthly: '900', from: '2025-02', to: '2025-03', version: 'reforecast' })
    let versions = await c.budgets.versions()
    expect(versions.map((v) => [v.name, v.current, v.budgets])).toEqual([
      ['original', true, 5],
      ['reforecast', false, 2],
    ])
    expect((await c.budgets.report({ from: '2025-02-01', to: '2025-02-28', version: 'reforecast' })).periods[0].rows).toMatchObject([
      { category: 'Rent', budget: 900 },
    ])
    await c.budgets.makeCurrent('reforecast')
    versions = await c.budgets.versions()
    expect(versions.map((v) => v.current)).toEqual([false, true])
    expect((await c.budgets.list()).version).toBe('reforecast')
    expect((await c.budgets.list({ version: 'original' })).budgets).toHaveLength(5)
    await refused(c.budgets.list({ version: 'nope' }), 404)
    // Every reader of a version: a typo is no version without budgets, and its nearest is named.
    for (const read of [
      () => c.budgets.report({ from: '2025-02-01', to: '2025-02-28', version: 'reforcast' }),
      () => c.forecast.run({ days: 5, version: 'reforcast' }),
      () => c.budgets.makeCurrent('reforcast'),
    ])
      expect((await refused(read(), 404)).message).toBe('budget version "reforcast" not found (did you mean "reforecast"?)')
    await c.budgets.makeCurrent('original')
  })

  it("locks a closed month's budgets (409 period_locked), audits each change and writes events", async () => {
    await c.budgets.set({ category: 'Food', monthly: '80', from: '2024-08', to: '2024-10' })
    await h.client({ token: t.token }).close.month('2024-09', { force: true, reason: 'budget lock test' })
    const before = await c.budgets.list({ category: 'Food', from: '2024-08', to: '2024-10' })
    const e = await refused(c.budgets.set({ category: 'Food', monthly: '90', from: '2024-09', to: '2024-10' }), 409)
    expect(e.code).toBe('period_locked')
    expect(e.message).toContain('the budget of 2024-09 is in a closed period')
    expect(e.details?.[0].path).toBe('from')
    expect((await refused(c.budgets.delete({ category: 'Food' }), 409)).code).toBe('period_locked')
    expect(await c.budgets.list({ category: 'Food', from: '2024-08', to: '2024-10' })).toEqual(before)
    // After the lock date both still work; --as-of reads the budget as it stood before.
    const before80 = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 5))
    expect((await c.budgets.set({ category: 'Food', monthly: '90', from: '2024-10', to: '2024-10' })).updated).toBe(1)
    const october = { from: '2024-10-01', to: '2024-10-31' }
    expect((await c.budgets.report(october)).periods[0].rows).toMatchObject([{ category: 'Food', budget: 90 }])
    expect((await c.budgets.report({ ...october, as_of: before80 })).periods[0].rows).toMatchObject([{ category: 'Food', budget: 80 }])
    expect(await c.budgets.delete({ category: 'Food', from: '2024-10', to: '2024-10' })).toMatchObject({ deleted: 1, months: ['2024-10'] })
    const entries = await h.store.db
      .selectFrom('audit_entries')
      .select(['action', 'changes'])
      .where('company_id', '=', t.companyId)
      .where('action', 'in', ['budget_set', 'budget_deleted'])
      .orderBy('id')
      .execute()
    expect(entries.map((x) => x.action)).toEqual([...Array(3 + 2 + 2 + 3 + 1).fill('budget_set'), 'budget_deleted'])
    expect(JSON.parse(entries.at(-2)!.changes)).toMatchObject({ month: '2024-10', before: { amount: 8000 }, after: { amount: 9000 } })
    expect((await c.audit.verify()).intact).toBe(true)
    const events = await c.events.list({ type: 'budget.set,budget.deleted' })
    expect(events.data.map((x) => x.type)).toEqual(['budget.set', 'budget.set', 'budget.set', 'budget.set', 'budget.set', 'budget.deleted'])
  })

  it('reads with read, sets only with write', async () => {
    const readKey = await h.client({ token: t.token }).keys.create({ name: 'reader', scopes: ['read'] })
    const reader = h.client({ apiKey: readKey.key })
    expect((await reader.budgets.list()).budgets.length).toBeGreaterThan(0)
    expect((await reader.budgets.report({ from: '2025-01-01', to: '2025-01-31' })).periods).toHaveLength(1)
    expect((await refused(reader.budgets.set({ category: 'Rent', monthly: '1' }), 403)).code).toBe('forbidden')
    await refused(reader.budgets.delete({ category: 'Rent' }), 403)
  })
})
