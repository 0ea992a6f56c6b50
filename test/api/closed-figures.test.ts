/**
 * A closed month's figures never move (docs/closing.md) through both transports on both
 * stores. The finding, step by step: a EUR account's opening balance (base USD) was converted at the
 * rate of its first transaction in any month, so writes in an open month moved September's cash-flow
 * opening balance (1,100 as closed; 2,000, 7,000, 5,000, 10,000, 5,000 after each write). Now each
 * write either leaves the closed month's reports as they were or is refused with period_locked.
 * Also: the rate an opening balance keeps (given, the company's rate of its date, or refused), and
 * migration 0027's rate for accounts from before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { backfill } from '../../src/store/migrations/0027_opening_rates.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

const SEPTEMBER = { from: '2024-09-01', to: '2024-09-30' }

/** What a closed month's reports say, restricted to the accounts given (a new account adds a row of 0). */
async function figures(c: Client, ids: string[]) {
  const summary = await c.reports.summary(SEPTEMBER)
  const cashFlow = await c.reports.cashFlow({ ...SEPTEMBER, interval: 'week' })
  const opening = await c.exports.openingBalances({ from: SEPTEMBER.from })
  const after = await c.exports.openingBalances({ from: '2024-10-01' })
  const asOf = await c.reports.cashFlow({ ...SEPTEMBER, as_of: new Date().toISOString() })
  const mine = <T extends { id: string }>(list: T[]) => list.filter((a) => ids.includes(a.id))
  return {
    summary: { ...summary, accounts: mine(summary.accounts) },
    cashFlow,
    asOf,
    opening: mine(opening.accounts),
    after: mine(after.accounts),
  }
}

describe.each(MATRIX)('closed figures over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    c = h.client({ apiKey: (await h.tenant('Figures')).key })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('the finding, step by step: each write leaves September as closed or is refused', async () => {
    // A company of its own: a reopen leaves the month before closed.
    const t = await h.tenant('Closed')
    const c = h.client({ apiKey: t.key })
    const owner = h.client({ token: t.token })
    await c.rates.set('2024-08-01', 'EUR', { rate: '1.1' })
    const eur = await c.accounts.create({
      name: 'Euros',
      account_type: 'checking',
      currency_code: 'EUR',
      opening_balance: '1000',
      opening_balance_date: '2024-08-01',
    })
    // The company's rate of the opening date, kept with it.
    expect(eur).toMatchObject({ opening_exchange_rate: 1.1, opening_exchange_rate_date: '2024-08-01' })
    const [october] = (
      await c.transactions.batch([
        { bank_account_id: eur.id, transaction_date: '2024-10-05', description: 'October', amount: '-10.00', exchange_rate: '1.1' },
      ])
    ).created
    await owner.close.month('2024-09', { force: true, reason: 'closed figures test' })
    const ids = [t.accountId, eur.id]
    const closed = await figures(c, ids)
    expect(closed.cashFlow.opening_balance).toBe(1100)

    // 1. tx update of an October EUR row's rate (was 2,000).
    await c.transactions.update(october.id, { exchange_rate: '2' })
    expect(await figures(c, ids)).toEqual(closed)
    // 2. a new account opening in the closed month (was 7,000): refused.
    const created = await rejects(
      c.accounts.create({
        name: 'Late',
        account_type: 'checking',
        currency_code: 'USD',
        opening_balance: '5000',
        opening_balance_date: '2024-09-01',
      }),
      'period_locked',
    )
    expect(created.details?.[0].path).toBe('opening_balance_date')
    expect(created.message).toContain('the lock date is 2024-09-30')
    // Undated with a balance: it would count in every month, September too.
    const undated = await rejects(
      c.accounts.create({ name: 'Undated', account_type: 'cash', currency_code: 'USD', opening_balance: '5000' }),
      'period_locked',
    )
    expect(undated.message).toContain('has no opening date')
    expect(await figures(c, ids)).toEqual(closed)
    // 3. deleting the only EUR transaction (was 5,000).
    await c.transactions.delete(october.id)
    expect(await figures(c, ids)).toEqual(closed)
    // 4. a new October EUR row at rate 5 (was 10,000).
    const [again] = (
      await c.transactions.batch([
        { bank_account_id: eur.id, transaction_date: '2024-10-06', description: 'Rate 5', amount: '-1.00', exchange_rate: '5' },
      ])
    ).created
    expect(await figures(c, ids)).toEqual(closed)
    // 5. deleting the account (was 5,000): refused, its opening date is in the closed period.
    await c.transactions.delete(again.id)
    const deleted = await rejects(c.accounts.delete(eur.id), 'period_locked')
    expect(deleted.message).toContain(`the opening date 2024-08-01 of bank account "Euros" is in a closed period`)
    expect(await figures(c, ids)).toEqual(closed)

    // Its rate is an opening figure: refused like its balance.
    const rate = await rejects(c.accounts.update(eur.id, { opening_exchange_rate: '3' }), 'period_locked')
    expect(rate.details?.[0].path).toBe('opening_exchange_rate')
    // Rates re-convert nothing stored: setting one on a closed date is taken and moves nothing.
    await c.rates.set('2024-08-01', 'EUR', { rate: '3' })
    await c.rates.set('2024-09-15', 'EUR', { rate: '3' })
    expect(await figures(c, ids)).toEqual(closed)
    // An account opening after the lock date comes and goes; so does one without a balance.
    const later = await c.accounts.create({
      name: 'Later',
      account_type: 'checking',
      currency_code: 'EUR',
      opening_balance: '200',
      opening_balance_date: '2024-10-01',
      opening_exchange_rate: '1.2',
    })
    const empty = await c.accounts.create({ name: 'Empty', account_type: 'cash', currency_code: 'USD' })
    expect(await figures(c, ids)).toEqual(closed)
    await c.accounts.delete(later.id)
    await c.accounts.delete(empty.id)
    expect(await figures(c, ids)).toEqual(closed)
  })

  it('an opening balance keeps the rate given, or the company rate of its date; none in reach is a 400 naming it', async () => {
    const missing = await rejects(
      c.accounts.create({
        name: 'Pounds',
        account_type: 'savings',
        currency_code: 'GBP',
        opening_balance: '100',
        opening_balance_date: '2020-01-01',
      }),
      'validation_error',
    )
    expect(missing.details?.[0].path).toBe('opening_exchange_rate')
    expect(missing.message).toContain('is required for the opening balance 100.00 GBP of bank account "Pounds" on 2020-01-01')
    // A balance of 0 needs none; the base currency takes none.
    const zero = await c.accounts.create({ name: 'Zero GBP', account_type: 'savings', currency_code: 'GBP' })
    expect(zero.opening_exchange_rate).toBeNull()
    await rejects(
      c.accounts.create({ name: 'Dollars', account_type: 'cash', currency_code: 'USD', opening_balance: '1', opening_exchange_rate: '2' }),
      'validation_error',
    )
    // Given: kept, without a date; a new opening date keeps it.
    const given = await c.accounts.create({
      name: 'Pounds',
      account_type: 'savings',
      currency_code: 'GBP',
      opening_balance: '100',
      opening_balance_date: '2020-01-01',
      opening_exchange_rate: '1.25',
    })
    expect(given).toMatchObject({ opening_exchange_rate: 1.25, opening_exchange_rate_date: null })
    const moved = await c.accounts.update(given.id, { opening_balance_date: '2020-02-01' })
    expect(moved.opening_exchange_rate).toBe(1.25)
    // From the table (the latest within reach): it follows the opening date.
    await c.rates.set('2020-02-28', 'GBP', { rate: '1.3' })
    await c.rates.set('2020-03-02', 'GBP', { rate: '1.31' })
    await c.accounts.update(zero.id, { opening_balance: '10', opening_balance_date: '2020-03-01' })
    expect(await c.accounts.get(zero.id)).toMatchObject({ opening_exchange_rate: 1.3, opening_exchange_rate_date: '2020-02-28' })
    await c.accounts.update(zero.id, { opening_balance_date: '2020-03-03' })
    expect(await c.accounts.get(zero.id)).toMatchObject({ opening_exchange_rate: 1.31, opening_exchange_rate_date: '2020-03-02' })
    await rejects(c.accounts.update(zero.id, { opening_balance_date: '2020-06-01' }), 'validation_error')
    // Reports convert at it: 100 × 1.25 and 10 × 1.31.
    const flow = await c.reports.cashFlow({ from: '2020-06-01', to: '2020-06-30' })
    expect(flow.opening_balance).toBe(138.1)
    await c.accounts.delete(given.id)
    await c.accounts.delete(zero.id)
  })

  it('migration 0027 gives an account from before it the rate reports took then: its first transaction in its currency', async () => {
    const a = await c.accounts.create({
      name: 'Old euros',
      account_type: 'checking',
      currency_code: 'EUR',
      opening_balance: '50',
      opening_exchange_rate: '9',
    })
    const none = await c.accounts.create({
      name: 'Old francs',
      account_type: 'checking',
      currency_code: 'CHF',
      opening_balance: '70',
      opening_exchange_rate: '9',
    })
    await c.transactions.batch([
      { bank_account_id: a.id, transaction_date: '2025-02-02', description: 'second', amount: '1', exchange_rate: '1.2' },
      { bank_account_id: a.id, transaction_date: '2025-02-01', description: 'voided', amount: '1', exchange_rate: '1.5' },
      { bank_account_id: a.id, transaction_date: '2025-02-01', description: 'first', amount: '1', exchange_rate: '1.1' },
    ])
    const voided = (await c.transactions.list({ bank_account_id: a.id, q: 'voided' })).data[0]
    await c.transactions.update(voided.id, { status: 'void' })
    await h.store.db
      .updateTable('bank_accounts')
      .set({ opening_exchange_rate: null, opening_exchange_rate_date: null })
      .where('id', 'in', [a.id, none.id])
      .execute()
    await backfill(h.store.db)
    expect(await c.accounts.get(a.id)).toMatchObject({ opening_exchange_rate: 1.1, opening_exchange_rate_date: null })
    // None to take: unconverted, as before, until one is given.
    expect((await c.accounts.get(none.id)).opening_exchange_rate).toBeNull()
    const flow = await c.reports.cashFlow({ from: '2025-01-01', to: '2025-01-31', bank_account_id: none.id })
    expect(flow.unconverted_opening_balances).toEqual([
      { bank_account_id: none.id, name: 'Old francs', currency_code: 'CHF', opening_balance: 70 },
    ])
    await c.accounts.update(none.id, { opening_exchange_rate: '1.05' })
    const fixed = await c.reports.cashFlow({ from: '2025-01-01', to: '2025-01-31', bank_account_id: none.id })
    expect([fixed.opening_balance, fixed.unconverted_opening_balances]).toEqual([73.5, []])
  })
})
