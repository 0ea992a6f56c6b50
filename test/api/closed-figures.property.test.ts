/**
 * Random writes outside a closed month (transactions created, updated
 * and deleted in open months, accounts opened in open months and deleted, opening rates given or
 * taken from the table, exchange rates set on any date, writes into the closed month that must be
 * refused) never change that month's figures: the summary and cash flow over it, the balances at its
 * last day, the exports' opening balances at its start and after it.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

const MONTH = { from: '2024-09-01', to: '2024-09-30' }
const pad = (n: number) => String(n).padStart(2, '0')
/** A day of October to December 2024 (open), or of September (closed). */
const openDay = fc.tuple(fc.integer({ min: 10, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([m, d]) => `2024-${pad(m)}-${pad(d)}`)
const closedDay = fc.integer({ min: 1, max: 30 }).map((d) => `2024-09-${pad(d)}`)
const rate = fc.integer({ min: 1, max: 40_000 }).map((n) => (n / 10_000).toFixed(4))
const amount = fc
  .integer({ min: -500_000, max: 500_000 })
  .filter((n) => n !== 0)
  .map((n) => (n / 100).toFixed(2))
const pick = fc.nat()

const op = fc.oneof(
  fc.record({
    kind: fc.constant('tx' as const),
    account: pick,
    day: openDay,
    amount,
    currency: fc.constantFrom('USD', 'EUR', 'GBP'),
    rate: fc.option(rate),
  }),
  fc.record({ kind: fc.constant('update' as const), tx: pick, amount: fc.option(amount), rate: fc.option(rate), day: fc.option(openDay) }),
  fc.record({ kind: fc.constant('void' as const), tx: pick }),
  fc.record({ kind: fc.constant('delete' as const), tx: pick }),
  fc.record({
    kind: fc.constant('account' as const),
    currency: fc.constantFrom('USD', 'EUR', 'GBP'),
    opening: amount,
    day: fc.option(openDay),
    rate: fc.option(rate),
  }),
  fc.record({ kind: fc.constant('account-update' as const), account: pick, opening: fc.option(amount), rate: fc.option(rate) }),
  fc.record({ kind: fc.constant('account-delete' as const), account: pick }),
  fc.record({ kind: fc.constant('rate' as const), currency: fc.constantFrom('EUR', 'GBP'), day: fc.oneof(openDay, closedDay), rate }),
  // Into the closed month: each must be refused.
  fc.record({ kind: fc.constant('closed-tx' as const), account: pick, day: closedDay, amount }),
  fc.record({ kind: fc.constant('closed-account' as const), day: fc.option(closedDay), opening: amount }),
  // Budgets: an open month's changes; one reaching into the closed month must be refused whole.
  fc.record({
    kind: fc.constant('budget' as const),
    month: fc.constantFrom('2024-10', '2024-11'),
    amount: amount.map((a) => a.replace('-', '')),
  }),
  fc.record({ kind: fc.constant('closed-budget' as const), amount: amount.map((a) => a.replace('-', '')) }),
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

describe.each(MATRIX)('closed figures (random writes) over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  /** The accounts of the closed month, and every account and open-month transaction written since. */
  let closedIds: string[]
  const accounts: Array<{ id: string; own: boolean }> = []
  const txs: string[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    const t = await h.tenant('Random')
    c = h.client({ apiKey: t.key })
    await c.rates.set('2024-08-01', 'EUR', { rate: '1.1' })
    const eur = await c.accounts.create({
      name: 'Euros',
      account_type: 'checking',
      currency_code: 'EUR',
      opening_balance: '1000',
      opening_balance_date: '2024-08-01',
    })
    const gbp = await c.accounts.create({
      name: 'Pounds',
      account_type: 'savings',
      currency_code: 'GBP',
      opening_balance: '250',
      opening_exchange_rate: '1.27',
    })
    const usd = await c.accounts.create({ name: 'Dollars', account_type: 'cash', currency_code: 'USD', opening_balance: '300' })
    closedIds = [t.accountId, eur.id, gbp.id, usd.id]
    for (const id of closedIds) accounts.push({ id, own: false })
    const items: CreateTransactionRequest[] = []
    for (const [i, id] of closedIds.entries())
      for (const date of ['2024-08-20', '2024-09-10', '2024-10-03'])
        items.push({
          bank_account_id: id,
          transaction_date: date,
          description: `seed ${i}`,
          category: i % 2 === 0 ? 'Rent' : 'Food',
          amount: '-12.34',
          exchange_rate: id === eur.id || id === gbp.id ? '1.2' : undefined,
        })
    const r = await c.transactions.batch(items)
    expect(r.errors).toEqual([])
    txs.push(...r.created.filter((x) => x.transaction_date > MONTH.to).map((x) => x.id))
    await c.budgets.set({ category: 'Rent', monthly: '20', from: '2024-08', to: '2024-11', rollover: true })
    await h.client({ token: t.token }).close.month('2024-09', { force: true, reason: 'property test' })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function figures() {
    const mine = <T extends { id: string }>(list: T[]) => list.filter((a) => closedIds.includes(a.id))
    const summary = await c.reports.summary(MONTH)
    return {
      summary: { ...summary, accounts: mine(summary.accounts) },
      cashFlow: await c.reports.cashFlow({ ...MONTH, interval: 'week' }),
      budget: await c.budgets.report(MONTH),
      opening: mine((await c.exports.openingBalances({ from: MONTH.from })).accounts),
      after: mine((await c.exports.openingBalances({ from: '2024-10-01' })).accounts),
    }
  }

  /** A write; the refusals a random one may meet (no rate in reach, a closed account) are answers too. */
  async function write(o: Op): Promise<void> {
    const at = <T>(list: T[], i: number) => list[i % list.length]
    switch (o.kind) {
      case 'tx': {
        const item: CreateTransactionRequest = {
          bank_account_id: at(accounts, o.account).id,
          transaction_date: o.day,
          description: 'random',
          amount: o.amount,
          currency_code: o.currency,
          ...(o.currency !== 'USD' && o.rate !== null ? { exchange_rate: o.rate } : {}),
        }
        txs.push((await c.transactions.create(item)).id)
        return
      }
      case 'update':
        if (txs.length === 0) return
        await c.transactions.update(at(txs, o.tx), {
          ...(o.amount !== null ? { amount: o.amount } : {}),
          ...(o.rate !== null ? { exchange_rate: o.rate } : {}),
          ...(o.day !== null ? { transaction_date: o.day } : {}),
        })
        return
      case 'void':
        if (txs.length) await c.transactions.update(at(txs, o.tx), { status: 'void' })
        return
      case 'delete': {
        if (txs.length === 0) return
        const id = at(txs, o.tx)
        await c.transactions.delete(id)
        txs.splice(txs.indexOf(id), 1)
        return
      }
      case 'account': {
        const a = await c.accounts.create({
          name: `Random ${Math.random().toString(36).slice(2, 10)}`,
          account_type: 'checking',
          currency_code: o.currency,
          opening_balance: o.opening,
          opening_balance_date: o.day ?? '2024-10-01',
          ...(o.rate !== null && o.currency !== 'USD' ? { opening_exchange_rate: o.rate } : {}),
        })
        accounts.push({ id: a.id, own: true })
        return
      }
      case 'account-update': {
        const mine = accounts.filter((a) => a.own)
        if (mine.length === 0) return
        await c.accounts.update(at(mine, o.account).id, {
          ...(o.opening !== null ? { opening_balance: o.opening } : {}),
          ...(o.rate !== null ? { opening_exchange_rate: o.rate } : {}),
        })
        return
      }
      case 'account-delete': {
        const mine = accounts.filter((a) => a.own)
        if (mine.length === 0) return
        const a = at(mine, o.account)
        await c.accounts.delete(a.id)
        accounts.splice(accounts.indexOf(a), 1)
        return
      }
      case 'rate':
        await c.rates.set(o.day, o.currency, { rate: o.rate })
        return
      case 'closed-tx':
        await expect(
          c.transactions.create({
            bank_account_id: at(accounts, o.account).id,
            transaction_date: o.day,
            description: 'late',
            amount: o.amount,
          }),
        ).rejects.toMatchObject({ code: expect.stringMatching(/^(period_locked|validation_error)$/) })
        return
      case 'budget':
        await c.budgets.set({ category: 'Rent', monthly: o.amount, from: o.month, to: '2024-12' })
        return
      case 'closed-budget':
        await expect(c.budgets.set({ category: 'Rent', monthly: o.amount, from: '2024-09', to: '2024-10' })).rejects.toMatchObject({
          code: 'period_locked',
        })
        await expect(c.budgets.delete({ category: 'Rent' })).rejects.toMatchObject({ code: 'period_locked' })
        return
      case 'closed-account':
        await expect(
          c.accounts.create({
            name: `Closed ${Math.random().toString(36).slice(2, 10)}`,
            account_type: 'cash',
            currency_code: 'USD',
            opening_balance: o.opening,
            ...(o.day !== null ? { opening_balance_date: o.day } : {}),
          }),
        ).rejects.toMatchObject({ code: 'period_locked' })
        return
    }
  }

  it('never move the closed month', async () => {
    const closed = await figures()
    expect(closed.cashFlow.opening_balance).not.toBe(0)
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 5 }), async (ops) => {
        for (const o of ops) {
          try {
            await write(o)
          } catch (e) {
            // A write refused for its own reasons (no rate in reach, a transaction before an opening date, an account holding some).
            if (!(e instanceof AppError) || !['validation_error', 'conflict'].includes(e.code)) throw e
          }
        }
        expect(await figures()).toEqual(closed)
      }),
      { numRuns: kind === 'embedded' && storeKind === 'sqlite' ? 40 : 10 },
    )
  })
})
