/**
 * Reports as they stood (`as_of`, docs/audit.md) through both transports on both stores: a summary
 * and a cash flow are run, the data is changed every way a report sees (created, amount, category,
 * date, status, bulk update, deleted, a foreign-currency amount, an account's opening rate, a new
 * account), and the same reports asked with `as_of` the moment of the first are equal to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest, Transaction } from '../../src/domain/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const RANGE = { from: '2026-09-01', to: '2026-10-31' }

describe.each(MATRIX)('reports --as-of over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let ca: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Acme')
    ca = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function batch(items: CreateTransactionRequest[]): Promise<Transaction[]> {
    const r = await ca.transactions.batch(items)
    expect(r.errors).toEqual([])
    return r.created
  }

  const reports = async (accounts: { usd: string; eur: string }) => ({
    summary: await ca.reports.summary(RANGE),
    summaryAll: await ca.reports.summary({}),
    eurSummary: await ca.reports.summary({ ...RANGE, bank_account_id: accounts.eur }),
    cashFlow: await ca.reports.cashFlow({ ...RANGE, interval: 'month' }),
    eurCashFlow: await ca.reports.cashFlow({ ...RANGE, interval: 'week', bank_account_id: accounts.eur }),
  })

  it('answers as the data stood at that moment, after creates, updates and deletes', async () => {
    const usd = (await ca.accounts.create({ name: 'Ops', account_type: 'checking', currency_code: 'USD', opening_balance: '1000' })).id
    const eur = (
      await ca.accounts.create({
        name: 'Konto',
        account_type: 'checking',
        currency_code: 'EUR',
        opening_balance: '500',
        opening_exchange_rate: '1.10',
      })
    ).id
    const tx = (account: string, date: string, amount: string, more: Partial<CreateTransactionRequest> = {}): CreateTransactionRequest => ({
      bank_account_id: account,
      transaction_date: date,
      description: `${date} ${amount}`,
      amount,
      ...more,
    })
    const [rent, sale, cafe, wire, move, gone, , eurFirst] = await batch([
      tx(usd, '2026-09-03', '-900.00', { category: 'Rent', cash_flow_category: 'operations', accounting_category: 'operating_expenses' }),
      tx(usd, '2026-09-10', '1200.00', { category: 'Sales', merchant_name: 'Client' }),
      tx(usd, '2026-09-15', '-4.50', { merchant_name: 'Cafe' }),
      tx(usd, '2026-10-02', '-250.00', { currency_code: 'EUR', exchange_rate: '1.0825', cash_flow_category: 'investing' }),
      tx(usd, '2026-10-20', '-75.00', { category: 'Travel', cash_flow_category: 'transfer' }),
      tx(usd, '2026-10-25', '-33.33', { merchant_name: 'Shop' }),
      tx(usd, '2026-08-30', '-10.00'),
      tx(eur, '2026-09-05', '-40.00', { exchange_rate: '1.10', merchant_name: 'Bäcker' }),
      tx(eur, '2026-09-20', '-60.00', { exchange_rate: '1.12' }),
    ])
    // Written before the moment too: its entry is not undone.
    await ca.transactions.update(sale.id, { status: 'posted' })
    const before = await reports({ usd, eur })
    await new Promise((r) => setTimeout(r, 5))
    const asOf = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 5))

    await batch([tx(usd, '2026-09-12', '77.77', { merchant_name: 'Client' }), tx(eur, '2026-09-01', '-5.00', { exchange_rate: '1.30' })])
    await ca.transactions.update(rent.id, { amount: '-950.00' })
    await ca.transactions.update(sale.id, { category: 'Consulting', accounting_category: 'revenue', is_reconciled: true })
    await ca.transactions.update(cafe.id, { status: 'void' })
    await ca.transactions.update(wire.id, { amount: '-260.00' })
    await ca.transactions.update(move.id, { transaction_date: '2026-11-02' })
    await ca.transactions.bulkUpdate({
      transaction_ids: [sale.id, gone.id],
      updates: { merchant_name: 'Renamed', cash_flow_category: 'financing' },
    })
    await ca.transactions.delete(gone.id)
    await ca.transactions.delete(eurFirst.id)
    await ca.accounts.update(eur, { opening_exchange_rate: '1.3' })
    await ca.accounts.create({ name: 'Later', account_type: 'savings', currency_code: 'USD', opening_balance: '5' })

    const after = await reports({ usd, eur })
    // The data did change what each report says...
    expect(after.summary).not.toEqual(before.summary)
    expect(after.cashFlow).not.toEqual(before.cashFlow)
    expect(after.eurSummary).not.toEqual(before.eurSummary)
    expect(after.eurCashFlow.opening_balance).not.toEqual(before.eurCashFlow.opening_balance)
    // ...and as it stood, each is the first exactly.
    const then = {
      summary: await ca.reports.summary({ ...RANGE, as_of: asOf }),
      summaryAll: await ca.reports.summary({ as_of: asOf }),
      eurSummary: await ca.reports.summary({ ...RANGE, bank_account_id: eur, as_of: asOf }),
      cashFlow: await ca.reports.cashFlow({ ...RANGE, interval: 'month', as_of: asOf }),
      eurCashFlow: await ca.reports.cashFlow({ ...RANGE, interval: 'week', bank_account_id: eur, as_of: asOf }),
    }
    expect(then).toEqual(before)
    // A moment now is the report of now; one with an offset is the same moment.
    expect(await ca.reports.summary({ ...RANGE, as_of: new Date().toISOString() })).toEqual(after.summary)
    const offset = asOf.replace('Z', '+00:00')
    expect(await ca.reports.summary({ ...RANGE, as_of: offset })).toEqual(before.summary)
  })

  it('as_of that is not a timestamp is a 400 naming it', async () => {
    const e = await ca.reports.summary({ as_of: 'yesterday' }).catch((err: unknown) => err)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).status).toBe(400)
    expect((e as AppError).details?.map((d) => d.path)).toContain('as_of')
  })
})
