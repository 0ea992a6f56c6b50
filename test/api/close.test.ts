/**
 * Closing the books through both transports on both stores: the month-end
 * status, closing a month (the owner's login or a `close` key; refused while not ready), every write
 * path refused with 409 period_locked while it is closed, and allowed again once it is reopened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { RuleApplyResult } from '../../src/domain/categorization/rule-schemas.js'
import type { CategorizationRule } from '../../src/domain/categorization/rule-schemas.js'
import type { Statement } from '../../src/domain/statements/schemas.js'
import { monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
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

// The last full month and a day of this one, from the clock (the service refuses implausible dates).
const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))
const END = monthEnd(M)
const day = (d: number) => `${M}-${String(d).padStart(2, '0')}`
const compact = (iso: string) => iso.replaceAll('-', '')

const ofx = (lines: Array<[string, string, string]>, closing: string) =>
  Buffer.from(
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>77<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>${compact(`${M}-01`)}<DTEND>${compact(END)}${lines
      .map(([d, amt, name], i) => `<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${compact(d)}<TRNAMT>${amt}<FITID>C${i}<NAME>${name}</STMTTRN>`)
      .join(
        '',
      )}</BANKTRANLIST><LEDGERBAL><BALAMT>${closing}<DTASOF>${compact(END)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`,
  )

describe.each(MATRIX)('closing the books over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  let closer: Client
  let acct: string
  const tx: Record<string, string> = {}

  const upload = async (name: string, bytes: Buffer): Promise<Statement> => {
    const s = await c.statements.upload({ bank_account_id: acct, file_name: name, content_base64: bytes.toString('base64') })
    return c.statements.wait(s.id)
  }
  const rule = async (): Promise<CategorizationRule> =>
    (
      await c.request<CategorizationRule>('POST', '/api-v1/categorization-rules', {
        body: { conditions: { description_contains: 'Lockable' }, actions: { category: 'Ruled', tags: ['ruled'] } },
      })
    ).data
  const applyRule = (id: string) =>
    c.request<RuleApplyResult>('POST', `/api-v1/categorization-rules/${id}/apply`, { body: { since: `${M}-01` } }).then((r) => r.data)

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Close')
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
    const key = await owner.keys.create({ name: 'closer', scopes: ['read', 'close'] })
    closer = h.client({ apiKey: key.key })
    acct = (await c.accounts.create({ name: 'Books', account_type: 'checking', currency_code: 'USD' })).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('status: counts what is open, then the statement beside the book balance, and the difference', async () => {
    tx.coffee = (
      await c.transactions.create({
        bank_account_id: acct,
        transaction_date: day(5),
        amount: '-10.00',
        description: 'Coffee Lockable',
        category: 'Food',
      })
    ).id
    tx.salary = (
      await c.transactions.create({ bank_account_id: acct, transaction_date: day(10), amount: '100.00', description: 'Salary' })
    ).id
    let s = await c.close.status(M)
    const books = () => s.accounts.find((x) => x.id === acct)!
    expect(s).toMatchObject({ month: M, period_start: `${M}-01`, period_end: END, lock_date: null, closed: false, ready: false })
    expect(books()).toMatchObject({ statement: null, not_reconciled: 2, uncategorized: 1, pending: 2, unconverted: 0, ready: false })
    expect(s.company).toMatchObject({ not_reconciled: 2, uncategorized: 1, pending: 2 })

    // The statement reconciles (and posts) both; its closing balance equals the book's.
    const st = await upload(
      'month.ofx',
      ofx(
        [
          [day(5), '-10.00', 'Coffee Lockable'],
          [day(10), '100.00', 'Salary'],
        ],
        '90.00',
      ),
    )
    expect(st).toMatchObject({ status: 'completed', matched_count: 2 })
    s = await c.close.status(M)
    expect(books()).toMatchObject({
      statement: { id: st.id, period_end: END, closing_balance: 90 },
      book_balance: 90,
      difference: 0,
      not_reconciled: 0,
      uncategorized: 1,
      pending: 0,
      ready: false,
    })
    expect(books().blockers).toEqual(['1 uncategorized'])

    // Not ready: closing is refused (not_ready), naming what is open; force needs a reason.
    const e = await rejects(owner.close.month(M, {}), 'not_ready')
    expect(e.status).toBe(409)
    expect(e.message).toContain('1 uncategorized')
    await rejects(owner.close.month(M, { force: true }), 'validation_error')

    await c.transactions.update(tx.salary, { category: 'Income' })
    // A movement the statement does not have: the difference is named, in the account's currency.
    const extra = await c.transactions.create({
      bank_account_id: acct,
      transaction_date: day(20),
      amount: '5.00',
      description: 'Refund',
      category: 'Misc',
    })
    s = await c.close.status(M)
    expect(books()).toMatchObject({ book_balance: 95, difference: -5, not_reconciled: 1, ready: false })
    expect(books().blockers[0]).toContain('differs from the book balance 95.00')
    await c.transactions.delete(extra.id)
    s = await c.close.status(M)
    expect(books()).toMatchObject({ difference: 0, ready: true })
    expect(s.ready).toBe(true)
  })

  it('closes with the owner login or a close key, never a write key', async () => {
    const e = await rejects(c.close.month(M, {}), 'forbidden')
    expect(e.message).toContain('close scope')
    const r = await closer.close.month(M, {})
    expect(r.record).toMatchObject({ period: M, action: 'close', lock_date: END, previous_lock_date: null, forced: false })
    expect(r.record.actor).toMatch(/^key:/)
    const s = await c.close.status(M)
    expect(s).toMatchObject({ lock_date: END, closed: true })
    await rejects(owner.close.month(M, {}), 'conflict')
  })

  it('refuses every write to a transaction of the closed month with 409 period_locked', async () => {
    const locked = async (p: Promise<unknown>) => {
      const e = await rejects(p, 'period_locked')
      expect(e.status).toBe(409)
      expect(e.message).toContain(END)
      return e
    }
    // create, and a batch row (the others are created)
    await locked(c.transactions.create({ bank_account_id: acct, transaction_date: day(3), amount: '-1.00', description: 'Late' }))
    const later = await c.transactions.create({
      bank_account_id: acct,
      transaction_date: today,
      amount: '-2.00',
      description: 'Lockable now',
    })
    tx.later = later.id
    const b = await c.transactions.batch([
      { bank_account_id: acct, transaction_date: day(4), amount: '-3.00', description: 'Old row' },
      { bank_account_id: acct, transaction_date: today, amount: '-4.00', description: 'New row' },
    ])
    expect(b.created).toHaveLength(1)
    expect(b.errors).toEqual([expect.objectContaining({ index: 0, code: 'period_locked' })])
    expect(b.errors[0].message).toContain(END)
    // update, delete, and an update moving a transaction into the closed month
    await locked(c.transactions.update(tx.coffee, { description: 'Coffee changed' }))
    await locked(c.transactions.delete(tx.coffee))
    await locked(c.transactions.update(tx.later, { transaction_date: day(15) }))
    // a bulk update holding one of them changes none
    await locked(c.transactions.bulkUpdate({ transaction_ids: [tx.later, tx.coffee], updates: { category: 'Bulk' } }))
    expect((await c.transactions.get(tx.later)).category).toBeNull()
    // a rule over existing rows (both match it) changes none
    const r = await rule()
    await locked(applyRule(r.id))
    expect((await c.transactions.get(tx.later)).category).toBeNull()
    // a statement with a line of the closed month fails, naming it; nothing of it is imported
    const csv = Buffer.from(`Date,Description,Amount\n${day(12)},Old fee,-7.00\n${today},New fee,-8.00\n`)
    const st = await upload('late.csv', csv)
    expect(st.status).toBe('failed')
    expect(st.error).toContain('period_locked')
    expect(st.error).toContain(END)
    expect((await c.transactions.list({ bank_account_id: acct, limit: 100 })).data.map((t) => t.description)).not.toContain('New fee')
    // what changes nothing, and reads, still go
    expect((await c.transactions.update(tx.coffee, { description: 'Coffee Lockable' })).description).toBe('Coffee Lockable')
    expect((await c.transactions.get(tx.coffee)).transaction_date).toBe(day(5))
  })

  it('reopens with the owner login only, with a reason; then the writes go', async () => {
    await rejects(closer.close.reopen(M, 'a key may not'), 'forbidden')
    await rejects(owner.request('POST', `/api-v1/close/${M}/reopen`, { body: {} }), 'validation_error')
    const prev = monthEnd(previousMonth(M))
    const r = await owner.close.reopen(M, 'late supplier invoice')
    expect(r).toMatchObject({ period: M, action: 'reopen', lock_date: prev, previous_lock_date: END, reason: 'late supplier invoice' })
    expect(r.actor).toMatch(/^user:/)
    expect((await c.close.status(M)).lock_date).toBe(prev)
    await rejects(owner.close.reopen(M, 'again'), 'conflict')

    expect(
      (await c.transactions.create({ bank_account_id: acct, transaction_date: day(3), amount: '-1.00', description: 'Late' }))
        .transaction_date,
    ).toBe(day(3))
    expect((await c.transactions.update(tx.later, { transaction_date: day(15) })).transaction_date).toBe(day(15))
    const r2 = await applyRule((await rule()).id)
    expect(r2.updated).toBeGreaterThanOrEqual(2)
    expect((await c.transactions.bulkUpdate({ transaction_ids: [tx.later, tx.coffee], updates: { category: 'Bulk' } })).updated).toBe(2)
    const b = await c.transactions.batch([{ bank_account_id: acct, transaction_date: day(4), amount: '-3.00', description: 'Old row' }])
    expect(b.errors).toEqual([])
    const st = await upload('late-again.csv', Buffer.from(`Date,Description,Amount\n${day(12)},Old fee,-7.00\n`))
    expect(st.status).toBe('completed')
    expect((await c.transactions.delete(tx.later)).deleted).toBe(true)

    const history = await c.close.history()
    expect(history.map((x) => [x.action, x.period, x.lock_date, x.reason])).toEqual([
      ['reopen', M, prev, 'late supplier invoice'],
      ['close', M, END, null],
    ])
  })
})
