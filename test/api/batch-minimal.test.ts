/**
 * `Prefer: return=minimal` on POST /transactions/batch (RFC 7240): `created` holds each created
 * row's index in the request and its id instead of the whole transaction. `tx import` asks for it;
 * errors and duplicates are answered as without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('batch with Prefer: return=minimal over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Minimal')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const item = (n: number, extra: Record<string, unknown> = {}) => ({
    bank_account_id: a.accountId,
    transaction_date: `2026-03-0${(n % 9) + 1}`,
    description: `minimal ${n}`,
    amount: `${n}.25`,
    import_ref: `minimal.${n}`,
    ...extra,
  })

  async function post(body: unknown, headers: Record<string, string>) {
    const res = await h.raw('POST', '/api-v1/transactions/batch', {
      headers: { 'x-api-key': a.key, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return {
      status: res.status,
      applied: res.headers.get('preference-applied'),
      body: (await res.json()) as {
        data: {
          created: Array<Record<string, unknown>>
          errors: Array<{ index: number }>
          duplicates: Array<{ index: number; id: string }>
        }
      },
    }
  }

  it('answers index and id of each created row, errors and duplicates by index, and stores the rows', async () => {
    const first = await post({ transactions: [item(1), item(2)] }, { prefer: 'return=minimal' })
    expect(first.status).toBe(201)
    expect(first.applied).toBe('return=minimal')
    expect(first.body.data.created.map((x) => Object.keys(x).sort())).toEqual([
      ['id', 'index'],
      ['id', 'index'],
    ])
    const [one, two] = first.body.data.created

    // index 0 is new, 1 is invalid (no description), 2 was created above, 3 is new
    const second = await post(
      { transactions: [item(3), item(4, { description: '' }), item(1), item(5)] },
      { prefer: 'handling=lenient, return=minimal' },
    )
    expect(second.status).toBe(201)
    expect(second.applied).toBe('return=minimal')
    expect(second.body.data.created.map((x) => x.index)).toEqual([0, 3])
    expect(second.body.data.errors.map((e) => e.index)).toEqual([1])
    expect(second.body.data.duplicates).toEqual([{ index: 2, id: one.id, import_ref: 'minimal.1' }])

    for (const [x, n] of [
      [one, 1],
      [two, 2],
      [second.body.data.created[0], 3],
      [second.body.data.created[1], 5],
    ] as const) {
      expect(await c.transactions.get(x.id as string)).toMatchObject({ description: `minimal ${n}`, amount: n + 0.25 })
    }
  })

  it('answers whole transactions without the preference, and with an Idempotency-Key (its replays are the first answer)', async () => {
    const plain = await post({ transactions: [item(6)] }, {})
    expect(plain.applied).toBeNull()
    expect(plain.body.data.created[0]).toMatchObject({ description: 'minimal 6', amount: 6.25, status: 'pending' })
    const keyed = await post({ transactions: [item(7)] }, { prefer: 'return=minimal', 'idempotency-key': `min-${kind}-${storeKind}` })
    expect(keyed.applied).toBeNull()
    expect(keyed.body.data.created[0]).toMatchObject({ description: 'minimal 7', amount: 7.25 })
  })

  it('the typed client reads created ids either way', async () => {
    const r = await c.transactions.batchMinimal([item(8), item(8)])
    expect(r.created).toHaveLength(1)
    expect(r.duplicates).toHaveLength(1)
    expect((await c.transactions.get(r.created[0].id)).description).toBe('minimal 8')
  })
})
