/**
 * Events (and `events list|get`) through both transports on both stores: each change
 * writes one event with the object as the API returns it and the actor; a batch writes one
 * transactions.imported with counts and ids; the list pages by sequence and filters by type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)

describe.each(MATRIX)('events over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let start: number

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant()
    c = h.client({ apiKey: a.key })
    start = (await c.events.list({ limit: 1000 })).pagination.next_after ?? 0
  })
  afterAll(() => h?.close())

  it('the tenant set-up wrote its key and account events', async () => {
    const page = await c.events.list({ limit: 1000 })
    expect(page.data.map((e) => e.type)).toEqual(['api_key.created', 'bank_account.created'])
    const [key, account] = page.data
    expect(key.object_id).toBe(a.keyId)
    expect(key.data).not.toHaveProperty('key')
    expect(account.data).toMatchObject({ id: a.accountId, name: 'Operating' })
    expect(account.actor).toBe(`key:${a.keyId}`)
    expect(account.company_id).toBe(a.companyId)
  })

  it('create, update and delete write one event each, with the object as the API returns it', async () => {
    const t = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: 'Coffee', amount: '-4.50' })
    const u = await c.transactions.update(t.id, { category: 'Meals' })
    await c.transactions.delete(t.id)
    const page = await c.events.list({ after: start, type: 'transaction.created,transaction.updated,transaction.deleted' })
    expect(page.data.map((e) => [e.type, e.object_id])).toEqual([
      ['transaction.created', t.id],
      ['transaction.updated', t.id],
      ['transaction.deleted', t.id],
    ])
    expect(page.data[0].data).toEqual(t)
    expect(page.data[1].data).toEqual({ ...u, changed_fields: ['category'] })
    expect(page.data[2].data).toMatchObject({ id: t.id, deleted: true })
    const seqs = page.data.map((e) => e.sequence)
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs)
  })

  it('a batch writes one transactions.imported with counts and ids, not one per row', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({
      bank_account_id: a.accountId,
      transaction_date: today,
      description: `Row ${i}`,
      amount: `-${i + 1}.00`,
      import_ref: `ev-${i}`,
    }))
    const first = await c.transactions.batch([...items, { ...items[0], amount: 'nope', import_ref: 'bad' }])
    const again = await c.transactions.batch(items.slice(0, 2))
    expect(again.duplicates).toHaveLength(2)
    const page = await c.events.list({ after: start, type: 'transactions.imported' })
    expect(page.data).toHaveLength(1)
    expect(page.data[0].data).toEqual({ created: 5, duplicates: 0, errors: 1, transaction_ids: first.created.map((t) => t.id) })
    expect(await c.events.list({ after: start, type: 'transaction.created' }).then((p) => p.data)).toHaveLength(1)
  })

  it('pages by sequence: limit, has_more, next_after; get one by id', async () => {
    const all = (await c.events.list({ limit: 1000 })).data
    const first = await c.events.list({ limit: 2 })
    expect(first.data).toEqual(all.slice(0, 2))
    expect(first.pagination).toEqual({ limit: 2, next_after: all[1].sequence, has_more: true })
    const rest = await c.events.list({ after: first.pagination.next_after!, limit: 1000 })
    expect(rest.data).toEqual(all.slice(2))
    expect(rest.pagination.has_more).toBe(false)
    expect(await c.events.get(all[3].id)).toEqual(all[3])
  })

  it("another company's events are not there; bad filters are 400 naming the field", async () => {
    const b = await h.tenant('Other')
    const theirs = await h.client({ apiKey: b.key }).events.list({ limit: 1000 })
    const mine = new Set((await c.events.list({ limit: 1000 })).data.map((e) => e.id))
    expect(theirs.data.some((e) => mine.has(e.id))).toBe(false)
    await expect(h.client({ apiKey: b.key }).events.get([...mine][0])).rejects.toMatchObject({ code: 'not_found' })
    const e = await c.events.list({ type: 'transaction.exploded' }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).details?.[0].path).toMatch(/type/)
    expect((e as AppError).message).toMatch(/unknown event type transaction\.exploded/)
  })
})
