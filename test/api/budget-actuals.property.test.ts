/**
 * For random transactions (categories or none, transfers, other currencies at given rates, void
 * ones) and random budgets, the budget report's actuals are exactly the summary's: each budgeted
 * category's actual over a period is minus its `by_category` amount, and a period's actuals and
 * unbudgeted spending add up to minus the cash flow's net, by month, quarter and year.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

const pad = (n: number) => String(n).padStart(2, '0')
const CATEGORIES = ['Rent', 'Food', 'Travel', 'Sales', null] as const
const row = fc.record({
  month: fc.integer({ min: 1, max: 6 }),
  day: fc.integer({ min: 1, max: 28 }),
  cents: fc.integer({ min: -300_000, max: 300_000 }).filter((n) => n !== 0),
  category: fc.constantFrom(...CATEGORIES),
  transfer: fc.boolean(),
  currency: fc.constantFrom('USD', 'USD', 'EUR'),
  rate: fc.integer({ min: 5_000, max: 20_000 }),
  void: fc.boolean(),
})
const budget = fc.record({
  category: fc.constantFrom('Rent', 'Food', 'Travel'),
  from: fc.integer({ min: 1, max: 6 }),
  cents: fc.integer({ min: 0, max: 500_000 }),
  rollover: fc.boolean(),
})
const cents = (n: number) => Math.round(n * 100)

describe.each(MATRIX)('budget actuals equal the summary and the cash flow over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  let accountId: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    const t = await h.tenant('Actuals')
    c = h.client({ apiKey: t.key })
    accountId = t.accountId
  })
  afterAll(async () => {
    await h?.close()
  })

  it('for random data, by month, quarter and year', async () => {
    let year = 2000
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 25 }), fc.array(budget, { maxLength: 4 }), async (rows, budgets) => {
        // A year of its own per run: earlier runs' rows stay out of its range.
        year++
        const items: CreateTransactionRequest[] = rows.map((r, i) => ({
          bank_account_id: accountId,
          transaction_date: `${year}-${pad(r.month)}-${pad(r.day)}`,
          description: `random ${i}`,
          amount: (r.cents / 100).toFixed(2),
          currency_code: r.currency,
          ...(r.currency !== 'USD' ? { exchange_rate: (r.rate / 10_000).toFixed(4) } : {}),
          ...(r.category !== null ? { category: r.category } : {}),
          ...(r.transfer ? { cash_flow_category: 'transfer' as const } : {}),
        }))
        const created = await c.transactions.batch(items)
        expect(created.errors).toEqual([])
        for (const [i, r] of rows.entries()) if (r.void) await c.transactions.update(created.created[i].id, { status: 'void' })
        for (const b of budgets)
          await c.budgets.set({
            category: b.category,
            monthly: (b.cents / 100).toFixed(2),
            from: `${year}-${pad(b.from)}`,
            to: `${year}-06`,
            rollover: b.rollover,
          })
        for (const interval of ['month', 'quarter', 'year'] as const) {
          const r = await c.budgets.report({ from: `${year}-01-01`, to: `${year}-06-30`, interval })
          for (const p of r.periods) {
            const summary = await c.reports.summary({ from: p.period_start, to: p.period_end })
            const flow = await c.reports.cashFlow({ from: p.period_start, to: p.period_end })
            for (const x of p.rows)
              expect(cents(x.actual)).toBe(0 - cents(summary.by_category.find((b) => b.category === x.category)?.amount ?? 0))
            for (const u of p.unbudgeted.by_category)
              expect(cents(u.actual)).toBe(0 - cents(summary.by_category.find((b) => b.category === u.category)?.amount ?? 0))
            const spent = p.rows.reduce((s, x) => s + cents(x.actual), 0) + cents(p.unbudgeted.actual)
            expect(spent).toBe(0 - cents(flow.totals.net))
            expect(p.total.variance * 100).toBeCloseTo(cents(p.total.budget) - cents(p.total.actual), 6)
          }
        }
      }),
      { numRuns: kind === 'embedded' ? 12 : 5 },
    )
  })
})
