/** Idempotency-Key on POST /api-v1/transactions, over both transports and both stores. */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('Idempotency-Key over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  const post = (key: string, body: object, idem: string) =>
    h.raw('POST', '/api-v1/transactions', {
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idem },
      body: JSON.stringify(body),
    })
  const countByDescription = async (description: string) =>
    (await h.store.db.selectFrom('transactions').select('id').where('description', '=', description).execute()).length

  it('replays the first answer for the same key and body, creating nothing new', async () => {
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-01', description: `idem ${idem}`, amount: '19.99' }
    const first = await post(a.key, body, idem)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const t1 = ((await first.json()) as { data: { id: string } }).data
    // same body with its keys in another order is the same request
    const reordered = { amount: '19.99', description: body.description, transaction_date: '2026-04-01', bank_account_id: a.accountId }
    const second = await post(a.key, reordered, idem)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await second.json()).toEqual({ success: true, data: t1 })
    expect(await countByDescription(body.description)).toBe(1)
  })

  it('409 idempotency_conflict for the same key with another body', async () => {
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-02', description: `conflict ${idem}`, amount: '1.00' }
    expect((await post(a.key, body, idem)).status).toBe(201)
    const other = await post(a.key, { ...body, amount: '2.00' }, idem)
    expect(other.status).toBe(409)
    expect(await other.json()).toMatchObject({ success: false, error: { code: 'idempotency_conflict' } })
    expect(await countByDescription(body.description)).toBe(1)
  })

  it('keys are per API key', async () => {
    const other = await h.client({ token: a.token }).keys.create({ name: 'other', scopes: ['write'] })
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-03', description: `per key ${idem}`, amount: '1.00' }
    const r1 = await post(a.key, body, idem)
    const r2 = await post(other.key, body, idem)
    expect(r1.status).toBe(201)
    expect(r2.status).toBe(201)
    expect(r2.headers.get('idempotent-replayed')).toBeNull()
    expect(await countByDescription(body.description)).toBe(2)
  })

  it('a refused request does not use up its key: fix the body and send it again', async () => {
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-04', description: `retry ${idem}`, amount: '1.001' }
    const bad = await post(a.key, body, idem)
    expect(bad.status).toBe(400)
    const good = await post(a.key, { ...body, amount: '1.00' }, idem)
    expect(good.status).toBe(201)
    expect(await countByDescription(body.description)).toBe(1)
  })

  it('concurrent replays create exactly one transaction', async () => {
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-05', description: `race ${idem}`, amount: '7.00' }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(a.key, body, idem).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { id: string } } })),
      ),
    )
    expect(answers.map((x) => x.status)).toEqual(Array(20).fill(201))
    expect(new Set(answers.map((x) => x.body.data.id)).size).toBe(1)
    expect(await countByDescription(body.description)).toBe(1)
  })

  it('a key older than 24 hours no longer replays', async () => {
    const idem = randomUUID()
    const body = { bank_account_id: a.accountId, transaction_date: '2026-04-06', description: `old ${idem}`, amount: '3.00' }
    expect((await post(a.key, body, idem)).status).toBe(201)
    await h.store.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3600 * 1000).toISOString() })
      .where('idem_key', '=', idem)
      .execute()
    const again = await post(a.key, body, idem)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(await countByDescription(body.description)).toBe(2)
  })

  it('refuses a malformed key with a 400 naming the header', async () => {
    const r = await post(
      a.key,
      { bank_account_id: a.accountId, transaction_date: '2026-04-07', description: 'x', amount: '1' },
      'x'.repeat(300),
    )
    expect(r.status).toBe(400)
    expect(await r.json()).toMatchObject({ error: { code: 'validation_error', details: [{ path: 'Idempotency-Key' }] } })
  })
})
