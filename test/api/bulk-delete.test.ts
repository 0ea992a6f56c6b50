/**
 * POST /api-v1/transactions/bulk-delete (docs/api.md section 4) through both transports on both
 * stores: all or nothing (an unknown id, another company's id, a reconciled row or one of a closed
 * month refuses the whole request, naming it, and writes nothing: no row, no entry, no event); what
 * it deletes is chained as `tx delete` chains it, one `transaction.deleted` event per row.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

async function rejects(p: Promise<unknown>, code: string, status: number): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect({ code: (e as AppError).code, status: (e as AppError).status }, (e as AppError).message).toEqual({ code, status })
  return e as AppError
}

describe.each(MATRIX)('bulk delete over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let other: Client
  const ids: string[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Bulkdel')
    const b = await h.tenant('Other')
    c = h.client({ apiKey: a.key })
    other = h.client({ apiKey: b.key })
    const rows = Array.from({ length: 8 }, (_, i) => ({
      bank_account_id: a.accountId,
      transaction_date: `2026-04-${String(i + 10).padStart(2, '0')}`,
      description: `Row ${i}`,
      amount: i % 2 ? '-10.25' : '3.10',
      category: 'Misc',
    }))
    ids.push(...(await c.transactions.batch(rows)).created.map((t) => t.id))
  })
  afterAll(async () => {
    await h?.close()
  })

  /** Which of `some` are still there. */
  const present = async (some: string[]) => {
    const listed = (await c.transactions.list({ bank_account_id: a.accountId, limit: 100 })).data.map((t) => t.id)
    return some.filter((id) => listed.includes(id))
  }
  const entries = (of: string[]) =>
    h.store.db
      .selectFrom('audit_entries')
      .select(['transaction_id', 'action', 'actor'])
      .where('company_id', '=', a.companyId)
      .where('transaction_id', 'in', of)
      .orderBy('id')
      .execute()
  const deletedEvents = async () => (await c.events.list({ type: 'transaction.deleted', limit: 100 })).data

  it('deletes the rows named, once each: the answer lists them as they were; each chained and evented as tx delete', async () => {
    const some = [ids[0], ids[1], ids[2]]
    // An id twice, and once in capitals, is one row.
    const r = await c.transactions.bulkDelete({ transaction_ids: [...some, ids[1].toUpperCase()] })
    expect(r.deleted).toBe(3)
    expect(r.transactions.map((t) => t.id)).toEqual(some)
    expect(r.transactions[1]).toMatchObject({ description: 'Row 1', amount: -10.25, category: 'Misc' })
    expect(await present(some)).toEqual([])
    for (const id of some) await rejects(c.transactions.get(id), 'not_found', 404)
    const chained = await entries(some)
    for (const id of some) expect(chained.filter((e) => e.transaction_id === id).map((e) => e.action)).toContain('delete')
    expect(chained.find((e) => e.action === 'delete')?.actor).toBe(`key:${a.keyId}`)
    const events = await deletedEvents()
    expect(events.map((e) => e.object_id).sort()).toEqual([...some].sort())
    expect(events[0].data).toMatchObject({ deleted: true })
    expect(await c.audit.verify()).toMatchObject({ intact: true, transactions: 5 })
  })

  it('an unknown id, or another company’s, refuses the whole request (404 naming it); nothing is deleted', async () => {
    const ghost = randomUUID()
    const e = await rejects(c.transactions.bulkDelete({ transaction_ids: [ids[3], ghost] }), 'not_found', 404)
    expect(e.message).toContain(ghost)
    expect(e.message).toContain('nothing was deleted')
    await rejects(other.transactions.bulkDelete({ transaction_ids: [ids[3]] }), 'not_found', 404)
    expect(await present([ids[3]])).toEqual([ids[3]])
  })

  it('a reconciled row refuses the whole request (409 naming it); nothing is deleted', async () => {
    await c.transactions.update(ids[4], { is_reconciled: true })
    const e = await rejects(c.transactions.bulkDelete({ transaction_ids: [ids[3], ids[4]] }), 'conflict', 409)
    expect(e.message).toContain(`transaction ${ids[4]}`)
    expect(e.message).toContain('un-reconcile')
    expect(await present([ids[3], ids[4]])).toEqual([ids[3], ids[4]])
    await c.transactions.update(ids[4], { is_reconciled: false })
  })

  it('a row of a closed month refuses the whole request (409 period_locked with the lock date); no row, entry or event written', async () => {
    const later = await c.transactions.create({
      bank_account_id: a.accountId,
      transaction_date: '2026-06-02',
      description: 'Open month',
      amount: '-1.00',
    })
    const eventsBefore = (await deletedEvents()).length
    const entriesBefore = (await entries([later.id, ids[5]])).length
    await h.store.db.updateTable('companies').set({ lock_date: '2026-04-30' }).where('id', '=', a.companyId).execute()
    try {
      const e = await rejects(c.transactions.bulkDelete({ transaction_ids: [later.id, ids[5], ids[6]] }), 'period_locked', 409)
      expect(e.message).toContain('2026-04-30')
      expect(e.message).toContain(`transaction ${ids[5]}`)
      expect(e.message).toContain('and 1 other')
      expect(await present([later.id, ids[5], ids[6]])).toEqual([later.id, ids[5], ids[6]])
      expect((await entries([later.id, ids[5]])).length).toBe(entriesBefore)
      expect((await deletedEvents()).length).toBe(eventsBefore)
    } finally {
      await h.store.db.updateTable('companies').set({ lock_date: null }).where('id', '=', a.companyId).execute()
    }
  })

  it('bad bodies are 400s naming the field', async () => {
    const bad = async (body: unknown, path: string) => {
      const e = await rejects(c.request('POST', '/api-v1/transactions/bulk-delete', { body }), 'validation_error', 400)
      expect(e.details?.[0]?.path).toBe(path)
    }
    await bad({ transaction_ids: [] }, 'transaction_ids')
    await bad({ transaction_ids: ['not-a-uuid'] }, 'transaction_ids.0')
    await bad({ transaction_ids: Array.from({ length: 1001 }, () => randomUUID()) }, 'transaction_ids')
    await bad({ transaction_ids: [ids[6]], updates: { category: 'x' } }, 'updates')
    expect(await present([ids[6]])).toEqual([ids[6]])
  })
})
