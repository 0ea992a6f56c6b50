/**
 * Reports (docs/api.md section 5) through both transports on both stores: invariants over random data
 * sets (fast-check), agreement with the transactions listed for the same range, interval edges,
 * multi-currency, void, transfers, updates and deletes, validation and scopes.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CashFlowReport, SummaryReport } from '../../src/domain/reports/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import type { CreateTransactionRequest, Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

/** Exact minor units (cents: every currency used here has 2 decimals) of a JSON amount. */
function c(x: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(x))
  if (!m) throw new Error(`not a 2-decimal amount: ${x}`)
  const v = BigInt(m[2]) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'))
  return m[1] ? -v : v
}
const dec = (minor: bigint): string =>
  `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor) / 100n}.${String((minor < 0n ? -minor : minor) % 100n).padStart(2, '0')}`

async function rejects(p: Promise<unknown>, code: string, status: number, path?: string): Promise<void> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect({ code: (e as AppError).code, status: (e as AppError).status }).toEqual({ code, status })
  if (path) expect((e as AppError).details?.map((d) => d.path)).toContain(path)
}

// ---- an independent model of the reports, from listed transactions --------------------------

const CATS = ['operations', 'investing', 'financing', 'uncategorized'] as const
type Cat = (typeof CATS)[number] | 'transfer'
const catOf = (t: Transaction): Cat => (t.cash_flow_category ?? 'uncategorized') as Cat

/** Base-currency cents of a listed transaction (USD base; others are converted by the test's own rate). */
function baseCents(t: Transaction): bigint {
  if (t.currency_code === 'USD') return c(t.amount)
  // amount × rate, half-even, per transaction (rates here have at most 4 decimals)
  const [w, f = ''] = String(t.exchange_rate).split('.')
  const rate = BigInt(w + f.padEnd(4, '0'))
  const n = c(t.amount) * rate
  const q = n / 10000n
  const r = n - q * 10000n
  const twice = 2n * (r < 0n ? -r : r)
  if (twice < 10000n) return q
  const away = r < 0n ? q - 1n : q + 1n
  if (twice > 10000n) return away
  return q % 2n === 0n ? q : away
}

function periodKey(date: string, interval: string): string {
  if (interval === 'day') return date
  if (interval === 'month') return date.slice(0, 7)
  if (interval === 'quarter') return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`
  // ISO week: the Thursday of the week decides the year
  const d = new Date(`${date}T00:00:00Z`)
  const thursday = new Date(d.getTime() + (3 - ((d.getUTCDay() + 6) % 7)) * 86_400_000)
  const y = thursday.getUTCFullYear()
  const week = Math.floor((thursday.getTime() - Date.UTC(y, 0, 1)) / (7 * 86_400_000)) + 1
  return `${y}-W${String(week).padStart(2, '0')}`
}

async function listAll(client: Client, q: Record<string, string>): Promise<Transaction[]> {
  const out: Transaction[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await client.transactions.list({ ...q, limit: 1000, cursor })
    out.push(...page.data)
    cursor = page.pagination?.next_cursor ?? undefined
    if (!cursor) return out
  }
}

/** Check a cash-flow report's own invariants, and against the listed transactions of its scope. */
function checkCashFlow(r: CashFlowReport, all: Transaction[], openingAccounts: bigint): void {
  const live = all.filter((t) => t.status !== 'void')
  const inRange = live.filter((t) => t.transaction_date >= r.from && t.transaction_date <= r.to)
  const before = live.filter((t) => t.transaction_date < r.from)
  // opening = accounts' opening balances + every non-void transaction before `from`
  expect(c(r.opening_balance)).toBe(openingAccounts + before.reduce((s, t) => s + baseCents(t), 0n))
  // inflows - outflows = net, everywhere
  const flows = [
    r.totals,
    r.transfers,
    ...CATS.map((k) => r.by_category[k]),
    ...r.periods.flatMap((p) => [p, p.transfers, ...CATS.map((k) => p.by_category[k])]),
  ]
  for (const f of flows) expect(c(f.inflows) - c(f.outflows)).toBe(c(f.net))
  for (const f of flows) expect(c(f.inflows) >= 0n && c(f.outflows) >= 0n).toBe(true)
  // opening + net + transfers = closing (transfers move money between the accounts)
  expect(c(r.opening_balance) + c(r.totals.net) + c(r.transfers.net)).toBe(c(r.closing_balance))
  // sum of categories (and nothing else) = totals; sum of periods = totals
  for (const k of ['inflows', 'outflows', 'net'] as const) {
    expect(CATS.reduce((s, cat) => s + c(r.by_category[cat][k]), 0n)).toBe(c(r.totals[k]))
    expect(r.periods.reduce((s, p) => s + c(p[k]), 0n)).toBe(c(r.totals[k]))
    expect(r.periods.reduce((s, p) => s + c(p.transfers[k]), 0n)).toBe(c(r.transfers[k]))
    for (const cat of CATS) expect(r.periods.reduce((s, p) => s + c(p.by_category[cat][k]), 0n)).toBe(c(r.by_category[cat][k]))
  }
  // periods: contiguous, cover the range, balances chain
  expect(r.periods[0].period_start).toBe(r.from)
  expect(r.periods[r.periods.length - 1].period_end).toBe(r.to)
  let bal = c(r.opening_balance)
  for (const [i, p] of r.periods.entries()) {
    expect(c(p.opening_balance)).toBe(bal)
    bal += c(p.net) + c(p.transfers.net)
    expect(c(p.closing_balance)).toBe(bal)
    expect(p.label).toBe(periodKey(p.period_start, r.interval))
    expect(periodKey(p.period_end, r.interval)).toBe(p.label)
    if (i > 0)
      expect(new Date(`${p.period_start}T00:00:00Z`).getTime() - new Date(`${r.periods[i - 1].period_end}T00:00:00Z`).getTime()).toBe(
        86_400_000,
      )
  }
  // the listed transactions, bucketed by the test's own period keys
  for (const p of r.periods) {
    const mine = inRange.filter((t) => t.transaction_date >= p.period_start && t.transaction_date <= p.period_end)
    for (const cat of [...CATS, 'transfer'] as const) {
      const sel = mine.filter((t) => catOf(t) === cat).map(baseCents)
      const f = cat === 'transfer' ? p.transfers : p.by_category[cat]
      expect(c(f.inflows)).toBe(sel.filter((x) => x > 0n).reduce((s, x) => s + x, 0n))
      expect(c(f.outflows)).toBe(-sel.filter((x) => x < 0n).reduce((s, x) => s + x, 0n))
    }
  }
}

function checkSummary(s: SummaryReport, all: Transaction[], balanceAtTo: bigint): void {
  const live = all.filter((t) => t.status !== 'void' && t.transaction_date >= s.from && t.transaction_date <= s.to)
  const flows = live.filter((t) => t.cash_flow_category !== 'transfer').map(baseCents)
  expect(c(s.income)).toBe(flows.filter((x) => x > 0n).reduce((a, x) => a + x, 0n))
  expect(c(s.expenses)).toBe(-flows.filter((x) => x < 0n).reduce((a, x) => a + x, 0n))
  expect(c(s.income) - c(s.expenses)).toBe(c(s.net))
  expect(s.transaction_count).toBe(live.length)
  expect(s.pending_count).toBe(live.filter((t) => t.status === 'pending').length)
  expect(s.unreconciled_count).toBe(live.filter((t) => !t.is_reconciled).length)
  expect(s.transfers.count).toBe(live.length - flows.length)
  expect(s.by_accounting_category.reduce((a, x) => a + c(x.amount), 0n)).toBe(c(s.net))
  expect(s.by_category.reduce((a, x) => a + c(x.amount), 0n)).toBe(c(s.net))
  expect(s.by_category.reduce((a, x) => a + x.count, 0)).toBe(flows.length)
  expect(s.accounts.reduce((a, x) => a + c(x.balance), 0n)).toBe(balanceAtTo)
}

// ---- the suite ------------------------------------------------------------------------------

const WINDOW = { from: '2023-11-01', to: '2025-02-28' }
const day = (i: number) => new Date(Date.parse(`${WINDOW.from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10)
const WINDOW_DAYS = 486

describe.each(MATRIX)('reports over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let ca: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    b = await h.tenant('Beta')
    ca = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function account(client: Client, opening = '0', currency = 'USD', rate?: string): Promise<string> {
    return (
      await client.accounts.create({
        name: `Acct ${Math.random().toString(36).slice(2, 8)}`,
        account_type: 'checking',
        currency_code: currency,
        opening_balance: opening,
        ...(rate ? { opening_exchange_rate: rate } : {}),
      })
    ).id
  }

  async function create(client: Client, items: CreateTransactionRequest[]): Promise<Transaction[]> {
    if (items.length === 0) return []
    const r = await client.transactions.batch(items)
    expect(r.errors).toEqual([])
    return r.created
  }

  const txArb = fc.record({
    day: fc.integer({ min: 0, max: WINDOW_DAYS - 1 }),
    cents: fc.integer({ min: -500_000, max: 500_000 }).filter((x) => x !== 0),
    cf: fc.constantFrom('operations', 'investing', 'financing', 'transfer', null),
    acc: fc.constantFrom('revenue', 'payroll', 'taxes', null),
    status: fc.constantFrom('pending', 'posted', 'void', 'pending'),
    reconciled: fc.boolean(),
  })

  it('cash flow and summary: invariants, and agreement with the listed transactions (random data)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(txArb, { maxLength: 25 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: WINDOW_DAYS - 1 }),
        fc.integer({ min: 0, max: WINDOW_DAYS }),
        fc.constantFrom('day', 'week', 'month', 'quarter'),
        async (txs, opening, start, length, interval) => {
          const acct = await account(ca, dec(BigInt(opening)))
          const made = await create(
            ca,
            txs.map((t, i) => ({
              bank_account_id: acct,
              transaction_date: day(t.day),
              description: `tx ${i}`,
              amount: dec(BigInt(t.cents)),
              cash_flow_category: t.cf ?? undefined,
              accounting_category: t.acc ?? undefined,
              category: t.acc ? `cat-${t.acc}` : undefined,
              merchant_name: i % 3 === 0 ? undefined : `m${i % 4}`,
            })),
          )
          const voids = made.filter((_, i) => txs[i].status === 'void').map((t) => t.id)
          const posted = made.filter((_, i) => txs[i].status === 'posted').map((t) => t.id)
          if (voids.length) await ca.transactions.bulkUpdate({ transaction_ids: voids, updates: { status: 'void' } })
          if (posted.length) await ca.transactions.bulkUpdate({ transaction_ids: posted, updates: { status: 'posted' } })
          const recon = made.filter((_, i) => txs[i].status === 'posted' && txs[i].reconciled).map((t) => t.id)
          if (recon.length) await ca.transactions.bulkUpdate({ transaction_ids: recon, updates: { is_reconciled: true } })

          const from = day(start)
          const to = day(Math.min(start + length, WINDOW_DAYS - 1))
          const listed = await listAll(ca, { bank_account_id: acct })
          expect(listed.length).toBe(txs.length)
          const r = await ca.reports.cashFlow({ from, to, interval, bank_account_id: acct })
          expect(r).toMatchObject({ from, to, interval, currency: 'USD', bank_account_id: acct })
          checkCashFlow(r, listed, BigInt(opening))
          const s = await ca.reports.summary({ from, to, bank_account_id: acct })
          checkSummary(s, listed, c(r.closing_balance))
          expect(s.accounts.map((x) => x.id)).toEqual([acct])
        },
      ),
      { numRuns: 15 },
    )
  })

  it('the whole company: the same invariants over every account, and the range listed via GET /transactions', async () => {
    const all = await listAll(ca, {})
    const accounts = (await ca.accounts.list()).data
    const openings = accounts.reduce((s, x) => s + c(x.opening_balance), 0n)
    for (const interval of ['week', 'month'] as const) {
      const r = await ca.reports.cashFlow({ ...WINDOW, interval })
      checkCashFlow(r, all, openings)
      const inRange = await listAll(ca, WINDOW)
      const nonTransfer = inRange.filter((t) => t.status !== 'void' && t.cash_flow_category !== 'transfer').map(baseCents)
      expect(c(r.totals.net)).toBe(nonTransfer.reduce((s, x) => s + x, 0n))
    }
    const s = await ca.reports.summary(WINDOW)
    const r = await ca.reports.cashFlow({ ...WINDOW, interval: 'quarter' })
    checkSummary(s, all, c(r.closing_balance))
    expect(s.accounts.map((x) => x.id).sort()).toEqual(accounts.map((x) => x.id).sort())
  })

  describe('interval edges', () => {
    let acct: string
    beforeAll(async () => {
      const b2 = h.client({ apiKey: b.key })
      acct = await account(b2, '100.00')
      await create(
        b2,
        [
          ['2024-01-31', '-1.00'],
          ['2024-02-01', '2.00'],
          ['2024-02-29', '4.00'],
          ['2024-03-01', '-8.00'],
          ['2020-12-27', '16.00'],
          ['2020-12-28', '32.00'],
          ['2020-12-31', '64.00'],
          ['2021-01-03', '128.00'],
          ['2021-01-04', '256.00'],
        ].map(([d, amount]) => ({ bank_account_id: acct, transaction_date: d, description: d, amount })),
      )
    })
    const cb = () => h.client({ apiKey: b.key })

    it('month ends and leap-year February 29', async () => {
      const r = await cb().reports.cashFlow({ from: '2024-01-01', to: '2024-03-31', interval: 'month', bank_account_id: acct })
      expect(r.periods.map((p) => [p.label, p.period_start, p.period_end, p.net])).toEqual([
        ['2024-01', '2024-01-01', '2024-01-31', -1],
        ['2024-02', '2024-02-01', '2024-02-29', 6],
        ['2024-03', '2024-03-01', '2024-03-31', -8],
      ])
      const d = await cb().reports.cashFlow({ from: '2024-02-28', to: '2024-03-01', interval: 'day', bank_account_id: acct })
      expect(d.periods.map((p) => [p.period_start, p.net])).toEqual([
        ['2024-02-28', 0],
        ['2024-02-29', 4],
        ['2024-03-01', -8],
      ])
    })

    it('ISO week 53: 2020-12-28..2021-01-03 is one week, 2020-W53', async () => {
      const r = await cb().reports.cashFlow({ from: '2020-12-28', to: '2021-01-03', interval: 'week', bank_account_id: acct })
      expect(r.periods.map((p) => [p.label, p.period_start, p.period_end, p.inflows])).toEqual([
        ['2020-W53', '2020-12-28', '2021-01-03', 224],
      ])
      expect(r.opening_balance).toBe(116)
      const wide = await cb().reports.cashFlow({ from: '2020-12-27', to: '2021-01-04', interval: 'week', bank_account_id: acct })
      expect(wide.periods.map((p) => [p.label, p.period_start, p.period_end, p.inflows])).toEqual([
        ['2020-W52', '2020-12-27', '2020-12-27', 16],
        ['2020-W53', '2020-12-28', '2021-01-03', 224],
        ['2021-W01', '2021-01-04', '2021-01-04', 256],
      ])
    })

    it('a range inside one period, and quarters clipped to the range', async () => {
      const r = await cb().reports.cashFlow({ from: '2024-02-10', to: '2024-02-29', interval: 'month', bank_account_id: acct })
      expect(r.periods.map((p) => [p.label, p.period_start, p.period_end, p.net])).toEqual([['2024-02', '2024-02-10', '2024-02-29', 4]])
      expect([r.opening_balance, r.closing_balance]).toEqual([100 + 496 + 1, 100 + 496 + 1 + 4])
      const q = await cb().reports.cashFlow({ from: '2023-12-15', to: '2024-04-10', interval: 'quarter', bank_account_id: acct })
      expect(q.periods.map((p) => [p.label, p.period_start, p.period_end, p.net])).toEqual([
        ['2023-Q4', '2023-12-15', '2023-12-31', 0],
        ['2024-Q1', '2024-01-01', '2024-03-31', -3],
        ['2024-Q2', '2024-04-01', '2024-04-10', 0],
      ])
    })

    it('periods without transactions are zeros, with the balance carried', async () => {
      const r = await cb().reports.cashFlow({ from: '2022-01-01', to: '2022-03-31', interval: 'month', bank_account_id: acct })
      expect(r.periods).toHaveLength(3)
      for (const p of r.periods) {
        expect([p.inflows, p.outflows, p.net, p.transfers.net, p.by_category.operations.net]).toEqual([0, 0, 0, 0, 0])
        expect([p.opening_balance, p.closing_balance]).toEqual([596, 596])
      }
    })
  })

  it('multi-currency: per-transaction half-even base amounts, opening balances at their own rate or listed as unconverted', async () => {
    // a fresh company keeps the numbers small
    const t = await h.tenant('FX')
    const cfx = h.client({ apiKey: t.key })
    const eur = await account(cfx, '100.00', 'EUR', '1.1')
    // An account from before that change with no rate of its own (what migration 0027 leaves without a transaction in GBP)
    const gbp = await account(cfx, '0', 'GBP')
    await h.store.db.updateTable('bank_accounts').set({ opening_balance: 5000 }).where('id', '=', gbp).execute()
    await create(cfx, [
      { bank_account_id: eur, transaction_date: '2024-05-02', description: 'later rate', amount: '10.00', exchange_rate: '1.2' },
      { bank_account_id: eur, transaction_date: '2024-05-01', description: 'first rate', amount: '0.05', exchange_rate: '1.1' },
      { bank_account_id: eur, transaction_date: '2024-05-03', description: 'rounds', amount: '0.05', exchange_rate: '1.1' },
      {
        bank_account_id: t.accountId,
        transaction_date: '2024-05-04',
        description: 'EUR on a USD account',
        amount: '-0.15',
        currency_code: 'EUR',
        exchange_rate: '1.1',
      },
    ])
    const r = await cfx.reports.cashFlow({ from: '2024-05-01', to: '2024-05-31', interval: 'month' })
    // 0.05 EUR × 1.1 = 0.055 -> 0.06 (half-even, per transaction), twice; 10 × 1.2 = 12; -0.15 × 1.1 = -0.165 -> -0.16
    expect(r.totals).toEqual({ inflows: 12.12, outflows: 0.16, net: 11.96 })
    // EUR opening 100.00 at the rate it was recorded with (1.1), whatever its transactions' rates; GBP has none: left out, listed
    expect(r.opening_balance).toBe(110)
    expect(r.closing_balance).toBe(121.96)
    expect(r.unconverted_opening_balances).toEqual([
      { bank_account_id: gbp, name: expect.any(String), currency_code: 'GBP', opening_balance: 50 },
    ])
    const s = await cfx.reports.summary({ from: '2024-05-01', to: '2024-05-31' })
    expect([s.currency, s.income, s.expenses, s.net]).toEqual(['USD', 12.12, 0.16, 11.96])
    // Each account's balance in its own currency: the EUR account's 100.00 + 10.00 + 0.05 + 0.05 EUR,
    // the USD account's EUR row at its base amount, the GBP account's opening balance.
    expect(Object.fromEntries(s.accounts.map((x) => [x.id, [x.balance, x.currency_code]]))).toEqual({
      [t.accountId]: [-0.16, 'USD'],
      [eur]: [110.1, 'EUR'],
      [gbp]: [50, 'GBP'],
    })
  })

  it('large sums are exact (15 digits of minor units) on both stores', async () => {
    const t = await h.tenant('Big')
    const cb = h.client({ apiKey: t.key })
    await create(
      cb,
      ['4999999999999.99', '4999999999999.99', '-0.01'].map((amount, i) => ({
        bank_account_id: t.accountId,
        transaction_date: `2024-08-0${i + 1}`,
        description: `big ${i}`,
        amount,
      })),
    )
    const r = await cb.reports.cashFlow({ from: '2024-08-01', to: '2024-08-31' })
    expect(r.totals).toEqual({ inflows: 9999999999999.98, outflows: 0.01, net: 9999999999999.97 })
    expect(r.closing_balance).toBe(9999999999999.97)
    const s = await cb.reports.summary({ from: '2024-08-01', to: '2024-08-31' })
    expect([s.income, s.net, s.accounts[0].balance]).toEqual([9999999999999.98, 9999999999999.97, 9999999999999.97])
  })

  it('void left out, transfers shown apart, updates and deletes reflected exactly', async () => {
    const t = await h.tenant('Moves')
    const cm = h.client({ apiKey: t.key })
    const savings = await account(cm, '1000.00')
    const range = { from: '2024-06-01', to: '2024-06-30' }
    const [sale, rent, voided, tin, tout] = await create(cm, [
      {
        bank_account_id: t.accountId,
        transaction_date: '2024-06-05',
        description: 'sale',
        amount: '500.00',
        cash_flow_category: 'operations',
        accounting_category: 'revenue',
        category: 'Sales',
        merchant_name: 'Client',
      },
      {
        bank_account_id: t.accountId,
        transaction_date: '2024-06-10',
        description: 'rent',
        amount: '-200.00',
        cash_flow_category: 'operations',
        accounting_category: 'operating_expenses',
        category: 'Rent',
        merchant_name: 'Landlord',
      },
      {
        bank_account_id: t.accountId,
        transaction_date: '2024-06-11',
        description: 'mistake',
        amount: '-999.00',
        cash_flow_category: 'investing',
      },
      {
        bank_account_id: t.accountId,
        transaction_date: '2024-06-12',
        description: 'from savings',
        amount: '300.00',
        cash_flow_category: 'transfer',
      },
      {
        bank_account_id: savings,
        transaction_date: '2024-06-12',
        description: 'to operating',
        amount: '-300.00',
        cash_flow_category: 'transfer',
      },
    ])
    await cm.transactions.update(voided.id, { status: 'void' })
    let r = await cm.reports.cashFlow({ ...range, interval: 'month' })
    expect(r.totals).toEqual({ inflows: 500, outflows: 200, net: 300 })
    expect(r.by_category.investing).toEqual({ inflows: 0, outflows: 0, net: 0 })
    expect(r.transfers).toEqual({ inflows: 300, outflows: 300, net: 0 })
    // paired transfers: opening + net = closing
    expect([r.opening_balance, r.closing_balance]).toEqual([1000, 1300])
    let s = await cm.reports.summary(range)
    expect(s).toMatchObject({
      income: 500,
      expenses: 200,
      net: 300,
      transaction_count: 4,
      pending_count: 4,
      unreconciled_count: 4,
      transfers: { inflows: 300, outflows: 300, net: 0, count: 2 },
    })
    expect(s.by_accounting_category).toEqual([
      { accounting_category: 'revenue', amount: 500, count: 1 },
      { accounting_category: 'operating_expenses', amount: -200, count: 1 },
    ])
    expect(s.top_merchants).toEqual([
      { merchant_name: 'Client', amount: 500, count: 1 },
      { merchant_name: 'Landlord', amount: -200, count: 1 },
    ])
    expect((await cm.reports.summary({ ...range, top: 1 })).top_merchants).toHaveLength(1)
    // one account only: its transfer is not netted out
    const one = await cm.reports.cashFlow({ ...range, bank_account_id: savings })
    expect([one.opening_balance, one.closing_balance, one.totals.net, one.transfers.net]).toEqual([1000, 700, 0, -300])

    // update: amount, category and date (to another month); reconcile; delete
    await cm.transactions.update(sale.id, { amount: '499.99', cash_flow_category: 'financing' })
    await cm.transactions.update(rent.id, { transaction_date: '2024-07-01' })
    await cm.transactions.update(tin.id, { status: 'posted' })
    r = await cm.reports.cashFlow({ ...range, interval: 'month' })
    expect(r.totals).toEqual({ inflows: 499.99, outflows: 0, net: 499.99 })
    expect(r.by_category.financing.net).toBe(499.99)
    expect(r.by_category.operations.net).toBe(0)
    s = await cm.reports.summary(range)
    expect([s.transaction_count, s.pending_count]).toEqual([3, 2])
    await cm.transactions.delete(sale.id)
    await cm.transactions.delete(tout.id)
    r = await cm.reports.cashFlow({ ...range, interval: 'month' })
    expect([r.totals.net, r.transfers.net, r.opening_balance, r.closing_balance]).toEqual([0, 300, 1000, 1300])
    const july = await cm.reports.cashFlow({ from: '2024-07-01', to: '2024-07-31' })
    expect([july.opening_balance, july.totals.outflows, july.closing_balance]).toEqual([1300, 200, 1100])
  })

  describe('validation, 404 and scopes', () => {
    it('names the bad field', async () => {
      await rejects(ca.reports.cashFlow({ from: '2024-02-30', to: '2024-03-31' }), 'validation_error', 400, 'from')
      await rejects(ca.reports.cashFlow({ from: '2024-04-01', to: '2024-03-31' }), 'validation_error', 400, 'from')
      await rejects(ca.reports.summary({ from: '2024-04-01', to: '2024-03-31' }), 'validation_error', 400, 'from')
      await rejects(ca.reports.cashFlow({ from: '2024-01-01', to: '2024-12-31', interval: 'year' }), 'validation_error', 400, 'interval')
      await rejects(ca.reports.cashFlow({ from: '2022-01-01', to: '2024-12-31', interval: 'day' }), 'validation_error', 400, 'interval')
      await rejects(ca.reports.summary({ top: 0 }), 'validation_error', 400, 'top')
      const res = await h.raw('GET', '/api-v1/reports/cash-flow?colour=red', { headers: { 'x-api-key': a.key } })
      expect(res.status).toBe(400)
      // the calendar's ends answer normally
      expect((await ca.reports.cashFlow({ from: '9999-12-01', to: '9999-12-31', interval: 'week' })).periods.map((p) => p.label)).toEqual([
        '9999-W48',
        '9999-W49',
        '9999-W50',
        '9999-W51',
        '9999-W52',
      ])
      expect(
        (await ca.reports.cashFlow({ from: '0001-01-01', to: '0001-04-01', interval: 'quarter' })).periods.map((p) => p.label),
      ).toEqual(['0001-Q1', '0001-Q2'])
      expect((await ca.reports.summary({ to: '0001-03-01' })).from).toBe('0001-01-01')
      // 1,000 days by day is allowed
      expect((await ca.reports.cashFlow({ from: '2022-01-01', to: '2024-09-26', interval: 'day' })).periods).toHaveLength(1000)
    })

    it('an account of another company is a 404, like an unknown one', async () => {
      await rejects(ca.reports.cashFlow({ bank_account_id: b.accountId }), 'not_found', 404)
      await rejects(ca.reports.summary({ bank_account_id: b.accountId }), 'not_found', 404)
      await rejects(ca.reports.summary({ bank_account_id: '00000000-0000-4000-8000-000000000000' }), 'not_found', 404)
    })

    it('needs the read scope', async () => {
      const admin = h.client({ token: a.token })
      const txOnly = await admin.keys.create({ name: 'tx only', scopes: ['transactions'] })
      await rejects(h.client({ apiKey: txOnly.key }).reports.summary(), 'forbidden', 403)
      const reader = await admin.keys.create({ name: 'reader', scopes: ['read'] })
      expect((await h.client({ apiKey: reader.key }).reports.summary()).currency).toBe('USD')
      await rejects(h.client().reports.cashFlow(), 'unauthorized', 401)
    })

    it('defaults to the last 12 months up to today, this month to date included, by month', async () => {
      const now = new Date()
      const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 10)
      const last = now.toISOString().slice(0, 10)
      const r = await ca.reports.cashFlow()
      expect([r.from, r.to, r.interval, r.periods.length]).toEqual([first, last, 'month', 12])
      const s = await ca.reports.summary()
      expect([s.from, s.to]).toEqual([first, last])
    })
  })
})

describe('OpenAPI document', () => {
  it('describes both reports, with their query parameters and response schemas', async () => {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser')
    const h = await createHarness('embedded')
    try {
      const doc = (await (await h.raw('GET', '/openapi.json')).json()) as {
        paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>>
        components: { schemas: Record<string, unknown> }
      }
      await SwaggerParser.validate(structuredClone(doc) as never)
      expect(doc.paths['/api-v1/reports/cash-flow'].get.parameters.map((p) => p.name).sort()).toEqual([
        'as_of',
        'bank_account_id',
        'from',
        'interval',
        'to',
      ])
      expect(doc.paths['/api-v1/reports/summary'].get.parameters.map((p) => p.name).sort()).toEqual([
        'as_of',
        'bank_account_id',
        'from',
        'to',
        'top',
      ])
      for (const name of ['CashFlowReport', 'CashFlowPeriod', 'SummaryReport', 'ReportFlows'])
        expect(doc.components.schemas).toHaveProperty(name)
    } finally {
      await h.close()
    }
  })
})
