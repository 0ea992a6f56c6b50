/**
 * Opening balances hold at their date (docs/money.md) through both transports on both
 * stores: the balance at the start of the opening date is the opening balance in every view (the
 * account, the summary's balances, cash flow, the export's opening balances, the month-end book);
 * a transaction dated before it is refused on every write path (create, update, batch, statement);
 * `PATCH /bank-accounts/{id}` changes the opening balance, its date and the account number, audited
 * and refused where it would move a closed month or leave a transaction before the date; and
 * transactions written before the rule stay, held by the opening balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

const OPENS = '2016-03-01'

describe.each(MATRIX)('opening balances over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let c: Client
  let owner: Client
  let acct: string

  const summaryBalance = async (to: string, id = acct) =>
    (await c.reports.summary({ from: '2013-01-01', to, bank_account_id: id })).accounts.find((a) => a.id === id)!.balance

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    t = await h.tenant('Opening')
    c = h.client({ apiKey: t.key })
    owner = h.client({ token: t.token })
    acct = (
      await c.accounts.create({
        name: 'Savings',
        account_type: 'savings',
        currency_code: 'USD',
        opening_balance: '25000.00',
        opening_balance_date: OPENS,
      })
    ).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('refuses a transaction dated before the opening date, naming it and the way to move it', async () => {
    const e = await rejects(
      c.transactions.create({ bank_account_id: acct, transaction_date: '2013-05-01', description: 'Old', amount: '-10.00' }),
      'validation_error',
    )
    expect(e.details).toEqual([expect.objectContaining({ path: 'transaction_date' })])
    expect(e.message).toContain(`2013-05-01 is before the opening date ${OPENS} of bank account "Savings"`)
    expect(e.message).toContain(`finctl accounts update ${acct} --opening-balance-date 2013-05-01`)
    // On the day itself: taken.
    await c.transactions.create({ bank_account_id: acct, transaction_date: OPENS, description: 'First day', amount: '-100.00' })
  })

  it('a batch answers the row before the opening date by its index and creates the others', async () => {
    const r = await c.transactions.batch([
      { bank_account_id: acct, transaction_date: '2016-03-02', description: 'After', amount: '-5.00' },
      { bank_account_id: acct, transaction_date: '2016-02-29', description: 'Day before', amount: '-7.00' },
    ])
    expect(r.created.map((x) => x.description)).toEqual(['After'])
    expect(r.errors).toEqual([
      expect.objectContaining({ index: 1, code: 'validation_error', details: [expect.objectContaining({ path: 'transaction_date' })] }),
    ])
    expect(r.errors[0].message).toContain(`before the opening date ${OPENS}`)
  })

  it('an update may not move a transaction before the opening date, of its account or of another', async () => {
    const [after] = (await c.transactions.list({ bank_account_id: acct, q: 'After' })).data
    const e = await rejects(c.transactions.update(after.id, { transaction_date: '2016-01-15' }), 'validation_error')
    expect(e.details?.[0].path).toBe('transaction_date')
    const other = await c.accounts.create({
      name: 'Later',
      account_type: 'checking',
      currency_code: 'USD',
      opening_balance_date: '2016-06-01',
    })
    const moved = await rejects(c.transactions.update(after.id, { bank_account_id: other.id }), 'validation_error')
    expect(moved.message).toContain('before the opening date 2016-06-01 of bank account "Later"')
    // Nothing changed.
    expect((await c.transactions.get(after.id)).transaction_date).toBe('2016-03-02')
    await c.accounts.delete(other.id)
  })

  it('a statement with a line before the opening date fails whole, naming the line and how to move the date', async () => {
    const csv = 'Date,Description,Amount\n2016-03-03,Fine,-1.00\n2016-02-20,Too early,-2.00\n'
    const s = await c.statements.upload({
      bank_account_id: acct,
      file_name: 'early.csv',
      content_base64: Buffer.from(csv).toString('base64'),
    })
    const done = await c.statements.wait(s.id)
    expect(done.status).toBe('failed')
    expect(done.error).toContain(`1 line is dated before the opening date ${OPENS} of bank account "Savings"`)
    expect(done.error).toContain('line 3: dated 2016-02-20')
    expect(done.error).toContain(`finctl accounts update ${acct} --opening-balance-date 2016-02-20`)
    expect((await c.transactions.list({ bank_account_id: acct, q: 'Fine' })).data).toEqual([])
  })

  it('every view: the opening balance counts from the start of its date, not before', async () => {
    // On the day: 25000.00 - 100.00; the next day -5.00.
    const account = await c.accounts.get(acct)
    expect(account).toMatchObject({ opening_balance: 25000, current_balance: 24895, transactions_before_opening: 0 })
    expect((await c.accounts.list()).data.find((a) => a.id === acct)?.current_balance).toBe(24895)
    expect(await summaryBalance('2013-12-31')).toBe(0)
    expect(await summaryBalance('2016-02-29')).toBe(0)
    expect(await summaryBalance(OPENS)).toBe(24900)
    // Cash flow from the opening date: its opening balance is the opening balance.
    const fromOpening = await c.reports.cashFlow({ from: OPENS, to: '2016-03-31', bank_account_id: acct })
    expect(fromOpening).toMatchObject({ opening_balance: 25000, opened: 0, closing_balance: 24895 })
    // A range across it: nothing before, and the opening balance comes in in March.
    const across = await c.reports.cashFlow({ from: '2016-01-01', to: '2016-04-30', bank_account_id: acct })
    expect(across.opening_balance).toBe(0)
    expect(across.periods.map((p) => [p.label, p.opening_balance, p.opened, p.closing_balance])).toEqual([
      ['2016-01', 0, 0, 0],
      ['2016-02', 0, 0, 0],
      ['2016-03', 0, 25000, 24895],
      ['2016-04', 24895, 0, 24895],
    ])
    expect(across).toMatchObject({ opened: 25000, closing_balance: 24895 })
    // The export's opening balances: before the date, nothing counts; from it, the balance.
    const early = (await c.exports.openingBalances({ from: '2016-01-01', bank_account_id: acct })).accounts[0]
    expect(early).toMatchObject({ opening_balance: 25000, opening_balance_date: OPENS, before: [], held: [] })
    const later = (await c.exports.openingBalances({ from: '2016-03-02', bank_account_id: acct })).accounts[0]
    expect(later.before).toEqual([{ currency_code: 'USD', amount: -100, base_amount: -100 }])
  })

  it('PATCH changes the opening balance, its date and the account number, with an audit entry and an event', async () => {
    const chain = await c.audit.verify()
    const updated = await c.accounts.update(acct, {
      opening_balance: '24000.50',
      opening_balance_date: '2016-01-01',
      account_number: 'DE89 3704 0044 0532 0130 00',
    })
    expect(updated).toMatchObject({
      opening_balance: 24000.5,
      opening_balance_date: '2016-01-01',
      account_number_last4: '3000',
      current_balance: 23895.5,
    })
    expect(await summaryBalance('2016-02-29')).toBe(24000.5)
    const after = await c.audit.verify()
    expect(after).toMatchObject({ intact: true, entries: chain.entries + 1 })
    const events = await c.events.list({ type: 'bank_account.updated' })
    expect(events.data.at(-1)?.data).toMatchObject({
      id: acct,
      changed_fields: expect.arrayContaining(['opening_balance', 'opening_balance_date', 'account_number_last4']),
    })
    // The same values again change nothing: no entry.
    await c.accounts.update(acct, { opening_balance: 24000.5, opening_balance_date: '2016-01-01' })
    expect((await c.audit.verify()).entries).toBe(after.entries)
    // A bad amount or date names its field.
    expect((await rejects(c.accounts.update(acct, { opening_balance: '1.001' }), 'validation_error')).details?.[0].path).toBe(
      'opening_balance',
    )
    expect((await rejects(c.accounts.update(acct, { opening_balance_date: '2016-13-01' }), 'validation_error')).details?.[0].path).toBe(
      'opening_balance_date',
    )
  })

  it('the opening date may not move past a transaction of the account', async () => {
    const e = await rejects(c.accounts.update(acct, { opening_balance_date: '2016-03-05' }), 'validation_error')
    expect(e.details?.[0].path).toBe('opening_balance_date')
    expect(e.message).toContain(`has a transaction dated ${OPENS}, before 2016-03-05`)
    // Up to the first transaction's day: allowed.
    await c.accounts.update(acct, { opening_balance_date: OPENS, opening_balance: '25000' })
    expect((await c.accounts.get(acct)).opening_balance_date).toBe(OPENS)
  })

  it('a closed month refuses a change that would move its figures, and takes one that would not', async () => {
    const open = await c.accounts.create({
      name: 'Unlocked',
      account_type: 'checking',
      currency_code: 'USD',
      opening_balance: '10',
      opening_balance_date: '2016-08-01',
    })
    const undated = await c.accounts.create({ name: 'Undated', account_type: 'cash', currency_code: 'USD', opening_balance: '5' })
    const empty = await c.accounts.create({ name: 'Empty', account_type: 'cash', currency_code: 'USD' })
    await owner.close.month('2016-06', { force: true, reason: 'opening balances test' })
    try {
      // The opening date on or before the lock date, old or new.
      const e = await rejects(c.accounts.update(acct, { opening_balance: '1' }), 'period_locked')
      expect(e.message).toContain(`the opening date ${OPENS} of bank account "Savings" is in a closed period: the lock date is 2016-06-30`)
      expect(e.details?.[0].path).toBe('opening_balance')
      await rejects(c.accounts.update(open.id, { opening_balance_date: '2016-06-30' }), 'period_locked')
      // No opening date: the opening balance counts in every month.
      const u = await rejects(c.accounts.update(undated.id, { opening_balance_date: '2016-09-01' }), 'period_locked')
      expect(u.message).toContain('has no opening date, so its opening balance counts in every month')
      // After the lock date, old and new: allowed; an opening balance of 0 holding nothing moves nothing.
      await c.accounts.update(open.id, { opening_balance: '11', opening_balance_date: '2016-07-01' })
      await c.accounts.update(empty.id, { opening_balance_date: '2016-07-01' })
      // The account number moves no figure.
      await c.accounts.update(acct, { account_number: null })
      expect((await c.accounts.get(acct)).account_number_last4).toBeNull()
    } finally {
      // Every month since 2012 open again (the lock date 2011-12-31 holds nothing of this test).
      await owner.close.reopen('2012-01', 'end of the test')
    }
  })

  it('reports as they stood before an opening balance changed give the figures of then', async () => {
    const before = await c.reports.summary({ from: '2016-01-01', to: '2016-12-31', bank_account_id: acct })
    await new Promise((r) => setTimeout(r, 5))
    const asOf = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 5))
    await c.accounts.update(acct, { opening_balance: '30000', opening_balance_date: '2016-02-01' })
    const then = await c.reports.summary({ from: '2016-01-01', to: '2016-12-31', bank_account_id: acct, as_of: asOf })
    expect(then.accounts).toEqual(before.accounts)
    const flowThen = await c.reports.cashFlow({ from: '2016-01-01', to: '2016-04-30', bank_account_id: acct, as_of: asOf })
    expect(flowThen.periods.map((p) => p.opened)).toEqual([0, 0, 25000, 0])
    expect((await c.reports.summary({ from: '2016-01-01', to: '2016-12-31', bank_account_id: acct })).accounts[0].balance).toBe(29895)
    await c.accounts.update(acct, { opening_balance: '25000', opening_balance_date: OPENS })
  })

  it('transactions written before the rule stay, held by the opening balance, and every view says so', async () => {
    // As a database written before that change holds them: a row dated before its account's opening date.
    // (An opening date after the lock date 2011-12-31 the tests above leave: an undated one would count in closed months.)
    const a = await c.accounts.create({
      name: 'Legacy',
      account_type: 'checking',
      currency_code: 'USD',
      opening_balance: '1000',
      opening_balance_date: '2015-01-01',
    })
    await c.transactions.create({ bank_account_id: a.id, transaction_date: '2015-05-01', description: 'Held', amount: '-30.00' })
    await c.transactions.create({ bank_account_id: a.id, transaction_date: '2015-07-01', description: 'Since', amount: '-2.00' })
    await h.store.db.updateTable('bank_accounts').set({ opening_balance_date: '2015-06-01' }).where('id', '=', a.id).execute()
    const got = await c.accounts.get(a.id)
    // From the opening date: the opening balance and what came since; the held row is in it already.
    expect(got).toMatchObject({ current_balance: 998, transactions_before_opening: 1 })
    expect(await summaryBalance('2015-05-31', a.id)).toBe(-30)
    expect(await summaryBalance('2015-06-01', a.id)).toBe(1000)
    const flow = await c.reports.cashFlow({ from: '2015-04-01', to: '2015-07-31', bank_account_id: a.id })
    expect(flow.periods.map((p) => [p.opening_balance, p.net, p.opened, p.closing_balance])).toEqual([
      [0, 0, 0, 0],
      [0, -30, 0, -30],
      [-30, 0, 1030, 1000],
      [1000, -2, 0, 998],
    ])
    const ob = (await c.exports.openingBalances({ from: '2015-07-01', bank_account_id: a.id })).accounts[0]
    expect(ob).toMatchObject({ before: [], held: [{ currency_code: 'USD', amount: -30, base_amount: -30 }] })
    // Moving the date later than a row since it: refused; to before the held row: it counts as any other.
    await rejects(c.accounts.update(a.id, { opening_balance_date: '2015-08-01' }), 'validation_error')
    await c.accounts.update(a.id, { opening_balance_date: '2015-05-01', opening_balance: '1030' })
    expect(await c.accounts.get(a.id)).toMatchObject({ current_balance: 998, transactions_before_opening: 0 })
  })
})
