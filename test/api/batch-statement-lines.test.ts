/**
 * `match_statement_lines` on POST /transactions/batch: rows already on a statement of
 * their account are paired with the statement's transactions by the rule a statement upload
 * reconciles by (same amount, date at most 3 days away, best description first, one to one), not
 * created again. Through both transports on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest, Transaction } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('batch rows already on a statement, over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let n = 0

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Matcher')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  async function accountWithStatement(csv: string, currency = 'USD'): Promise<{ account: string; statement: Transaction[] }> {
    const account = (await c.accounts.create({ name: `M${n++}`, account_type: 'checking', currency_code: currency })).id
    const up = await c.statements.upload({
      bank_account_id: account,
      file_name: 'statement.csv',
      content_base64: Buffer.from(`Date,Description,Amount\n${csv}`).toString('base64'),
      ...(currency === 'USD' ? {} : { exchange_rate: '1.1' }),
    })
    const done = await c.statements.wait(up.id)
    expect(done.status, done.error ?? '').toBe('completed')
    return { account, statement: (await c.statements.transactions(up.id, { sort: 'transaction_date' })).data }
  }
  const row = (
    account: string,
    date: string,
    amount: string,
    description: string,
    ref: string,
    over: Partial<CreateTransactionRequest> = {},
  ): CreateTransactionRequest => ({
    bank_account_id: account,
    transaction_date: date,
    amount,
    description,
    import_ref: ref,
    ...over,
  })
  /** The indexes of the created rows (the minimal answer's shape). */
  const createdAt = (r: { created: unknown[] }) => r.created.map((x) => (x as { index: number }).index)
  const all = async (account: string) =>
    (await c.transactions.list({ bank_account_id: account, limit: '100', sort: 'transaction_date' })).data

  it("pairs the rows with the statement's transactions: matched, not created; those carry the import_ref, reconciled; sent again, duplicates", async () => {
    const { account, statement } = await accountWithStatement('2026-02-03,Coffee Corner,-4.50\n2026-02-05,Office rent,-900.00\n')
    const items = [
      row(account, '2026-02-04', '-4.50', 'COFFEE CORNER 1234', 'r1.1'),
      row(account, '2026-02-05', '-900.00', 'Office rent', 'r2.1'),
      row(account, '2026-02-06', '-7.00', 'Taxi', 'r3.1'),
    ]
    const res = await c.transactions.batchMinimal(items, { matchStatementLines: true })
    expect(res.matched).toEqual([
      { index: 0, id: statement[0].id },
      { index: 1, id: statement[1].id },
    ])
    expect(createdAt(res)).toEqual([2])
    const rows = await all(account)
    expect(rows.map((t) => [t.description, t.status, t.is_reconciled, t.bank_statement_id !== null])).toEqual([
      ['Coffee Corner', 'posted', true, true],
      ['Office rent', 'posted', true, true],
      ['Taxi', 'pending', false, false],
    ])
    const history = await c.transactions.get(statement[0].id)
    expect(history.history?.at(-1)).toMatchObject({ action: 'reconcile', changes: { is_reconciled: { before: false, after: true } } })
    const again = await c.transactions.batchMinimal(items, { matchStatementLines: true })
    expect([again.created, again.matched, again.duplicates.map((d) => [d.index, d.id])]).toEqual([
      [],
      [],
      [
        [0, statement[0].id],
        [1, statement[1].id],
        [2, rows[2].id],
      ],
    ])
    expect(await all(account)).toHaveLength(3)
  })

  it('without match_statement_lines a batch creates as it always did, and answers no `matched`', async () => {
    const { account } = await accountWithStatement('2026-02-03,Coffee Corner,-4.50\n')
    const res = await c.transactions.batchMinimal([row(account, '2026-02-03', '-4.50', 'Coffee Corner', 'p1.1')])
    expect(res.created).toHaveLength(1)
    expect(res).not.toHaveProperty('matched')
    expect(await all(account)).toHaveLength(2)
  })

  it('two equal rows, one of them on the statement: one paired, one created; two on the statement: both paired', async () => {
    const one = await accountWithStatement('2026-03-10,Coffee,-3.20\n')
    const twice = [row(one.account, '2026-03-10', '-3.20', 'Coffee', 'e.1'), row(one.account, '2026-03-10', '-3.20', 'Coffee', 'e.2')]
    const r1 = await c.transactions.batchMinimal(
      twice.map((t) => ({ ...t, bank_account_id: one.account })),
      { matchStatementLines: true },
    )
    expect([r1.matched?.map((m) => m.index), createdAt(r1)]).toEqual([[0], [1]])
    expect(await all(one.account)).toHaveLength(2)
    const two = await accountWithStatement('2026-03-10,Coffee,-3.20\n2026-03-10,Coffee,-3.20\n')
    const r2 = await c.transactions.batchMinimal(
      twice.map((t) => ({ ...t, bank_account_id: two.account })),
      { matchStatementLines: true },
    )
    expect([r2.matched?.map((m) => m.index), r2.created]).toEqual([[0, 1], []])
    expect(await all(two.account)).toHaveLength(2)
  })

  it('never pairs another amount, a date 4 days away, a void or already paired transaction, another account or another currency', async () => {
    const { account, statement } = await accountWithStatement(
      '2026-04-01,Paid A,-10.00\n2026-04-01,Paid B,-20.00\n2026-04-01,Paid C,-30.00\n2026-04-01,Paid D,-40.00\n',
    )
    await c.transactions.update(statement[2].id, { status: 'void' })
    await c.transactions.batchMinimal([row(account, '2026-04-01', '-40.00', 'Paid D', 'd.1')], { matchStatementLines: true })
    const elsewhere = (await c.accounts.create({ name: `M${n++}`, account_type: 'checking', currency_code: 'USD' })).id
    const res = await c.transactions.batchMinimal(
      [
        row(account, '2026-04-01', '-10.01', 'Paid A', 'x.1'),
        row(account, '2026-04-05', '-20.00', 'Paid B', 'x.2'),
        row(account, '2026-04-01', '-30.00', 'Paid C', 'x.3'),
        row(account, '2026-04-01', '-40.00', 'Paid D', 'x.4'),
        row(elsewhere, '2026-04-01', '-10.00', 'Paid A', 'x.5'),
        row(account, '2026-04-01', '-10.00', 'Paid A', 'x.6', { currency_code: 'EUR', exchange_rate: '1.1' }),
      ],
      { matchStatementLines: true },
    )
    expect(res.matched).toEqual([])
    expect(createdAt(res)).toEqual([0, 1, 2, 3, 4, 5])
    // 3 days away still pairs
    const near = await c.transactions.batchMinimal([row(account, '2026-04-04', '-20.00', 'Paid B', 'x.7')], { matchStatementLines: true })
    expect(near.matched).toEqual([{ index: 0, id: statement[1].id }])
  })

  it('under an Idempotency-Key: paired the same way, and the replay answers the first answer', async () => {
    const { account, statement } = await accountWithStatement('2026-05-02,Invoice 9,250.00\n')
    const body = JSON.stringify({ transactions: [row(account, '2026-05-02', '250.00', 'Invoice 9', 'k.1')], match_statement_lines: true })
    const send = () =>
      h.raw('POST', '/api-v1/transactions/batch', {
        headers: { 'x-api-key': a.key, 'content-type': 'application/json', 'idempotency-key': `match-${kind}-${storeKind}` },
        body,
      })
    const first = (await (await send()).json()) as { data: { matched: unknown[]; created: unknown[] } }
    expect(first.data.matched).toEqual([{ index: 0, id: statement[0].id }])
    expect(first.data.created).toEqual([])
    const replay = await send()
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(((await replay.json()) as { data: unknown }).data).toEqual(first.data)
    expect(await all(account)).toHaveLength(1)
  })

  it('batches racing for one statement transaction: exactly one pairs with it', async () => {
    const { account, statement } = await accountWithStatement('2026-06-01,Supplier,-77.00\n')
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        c.transactions.batchMinimal([row(account, '2026-06-01', '-77.00', 'Supplier', `race.${i}`)], { matchStatementLines: true }),
      ),
    )
    expect(results.flatMap((r) => r.matched ?? []).map((m) => m.id)).toEqual([statement[0].id])
    expect(results.reduce((s, r) => s + r.created.length, 0)).toBe(3)
    expect(await all(account)).toHaveLength(4)
  })
})
