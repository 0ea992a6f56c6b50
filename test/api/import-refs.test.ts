/**
 * `import_ref`: an imported row's identity, unique per bank account, kept by the service so that
 * an import can be re-run, resumed after a crash or overlap an earlier download and still create
 * every row exactly once. Through both transports on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('import_ref over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let other: string

  const row = (ref: string, over: Partial<CreateTransactionRequest> = {}): CreateTransactionRequest => ({
    bank_account_id: a.accountId,
    transaction_date: '2026-04-01',
    description: `row ${ref}`,
    amount: '-10.00',
    import_ref: ref,
    ...over,
  })
  const count = async (account: string) =>
    (await c.transactions.list({ bank_account_id: account, limit: '1', include_total: true })).pagination!.total

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Importer')
    c = h.client({ apiKey: a.key })
    other = (await c.accounts.create({ name: 'Second', account_type: 'savings', currency_code: 'USD' })).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('a batch sent twice creates its rows once and reports the second time as duplicates with the first ids', async () => {
    const items = ['b1.1', 'b2.1', 'b2.2'].map((r) => row(r))
    const first = await c.transactions.batch(items)
    expect(first.created).toHaveLength(3)
    expect(first.duplicates).toEqual([])
    const before = await count(a.accountId)
    const again = await c.transactions.batch(items)
    expect(again.created).toEqual([])
    expect(again.errors).toEqual([])
    expect(again.duplicates.map((d) => [d.index, d.import_ref])).toEqual([
      [0, 'b1.1'],
      [1, 'b2.1'],
      [2, 'b2.2'],
    ])
    expect(again.duplicates.map((d) => d.id)).toEqual(first.created.map((t) => t.id))
    expect(await count(a.accountId)).toBe(before)
  })

  it('an overlapping batch creates only the new rows', async () => {
    const res = await c.transactions.batch([row('o1.1'), row('b1.1'), row('o2.1')])
    expect(res.created.map((t) => t.description)).toEqual(['row o1.1', 'row o2.1'])
    expect(res.duplicates.map((d) => d.index)).toEqual([1])
  })

  it('the same ref twice in one batch is created once', async () => {
    const res = await c.transactions.batch([row('twice.1'), row('twice.1')])
    expect(res.created).toHaveLength(1)
    expect(res.duplicates).toEqual([{ index: 1, id: res.created[0].id, import_ref: 'twice.1' }])
  })

  it('refs are per account: the same ref on another account is another transaction', async () => {
    const res = await c.transactions.batch([row('b1.1', { bank_account_id: other })])
    expect(res.created).toHaveLength(1)
    expect(res.duplicates).toEqual([])
  })

  it('a single create with a ref that exists answers 409 naming the existing transaction, and writes nothing', async () => {
    const first = await c.transactions.create(row('single.1'))
    const before = await count(a.accountId)
    const err = await c.transactions.create(row('single.1', { description: 'changed' })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(409)
    expect((err as AppError).message).toContain(first.id)
    expect(await count(a.accountId)).toBe(before)
  })

  it('with an Idempotency-Key, duplicates are reported the same way and the replay is identical', async () => {
    const items = [row('idem.1'), row('b1.1')]
    const first = await c.transactions.batch(items, { idempotencyKey: `imp-${kind}-${storeKind}` })
    expect(first.created.map((t) => t.description)).toEqual(['row idem.1'])
    expect(first.duplicates.map((d) => d.import_ref)).toEqual(['b1.1'])
    const replay = await c.transactions.batch(items, { idempotencyKey: `imp-${kind}-${storeKind}` })
    expect(replay).toEqual(first)
  })

  it('a malformed import_ref is a 400 naming the field', async () => {
    const err = await c.transactions.create(row('has space')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(400)
    expect(JSON.stringify((err as AppError).details)).toContain('import_ref')
  })
})
