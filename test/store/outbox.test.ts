/**
 * The outbox on both stores: a change and its event commit together. An insert's event
 * that the database refuses (a taken event id) takes the rows down with it, on every insert path
 * (SQLite's row and bulk paths, PostgreSQL's statement and COPY paths), and a write transaction that
 * fails after writing its event leaves no event; a PostgreSQL company's events are read in commit order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import type { InsertedRows, Store } from '../../src/store/store.js'
import { eventJson, eventRow, listEvents, recordEvents, toEvent } from '../../src/domain/events.js'
import { freshDatabase, seedTenant, STORES, txRow, type TestDatabase, type Tenant } from './fixtures.js'

describe.each(STORES)('the outbox on %s', (kind) => {
  let db: TestDatabase
  let store: Store
  let t: Tenant
  const now = new Date('2026-11-20T10:00:00.000Z')
  const count = async (table: 'events' | 'transactions') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  beforeAll(async () => {
    // Small loads take SQLite's bulk path (read when the store opens).
    process.env.FINCTL_BULK_LOAD_MIN_ROWS = '100'
    db = await freshDatabase(kind)
    store = await db.open()
    delete process.env.FINCTL_BULK_LOAD_MIN_ROWS
    t = await seedTenant(store)
  })
  afterAll(async () => {
    await store?.close()
    await db?.remove()
  })

  it.each([
    ['one row', 1, undefined],
    ['a batch (COPY on PostgreSQL)', 150, undefined],
    ['a bulk load (SQLite sets indexes aside)', 150, 150],
  ])('an insert of %s and its event go in together', async (_, n, bulkRows) => {
    const rows = Array.from({ length: n }, () => txRow(t))
    const before = { events: await count('events'), tx: await count('transactions') }
    const load = bulkRows ? store.hot.bulkLoad({ rows: bulkRows }) : undefined
    const options = {
      event: (ins: InsertedRows) =>
        eventRow('key:test', 'transactions.imported', null, { created: ins.size, transaction_ids: ins.ids() }, now, t.companyId),
    }
    const inserted = load ? await load.insert(rows, options) : await store.hot.insertTransactions(rows, options)
    expect(inserted.size).toBe(n)
    const { events } = await listEvents(store, t.companyId, { types: ['transactions.imported'], limit: 1000 })
    const last = events[events.length - 1]
    expect(last.data).toEqual({ created: n, transaction_ids: rows.map((r) => r.id) })
    // The ids are kept packed beside the data text, and given back in the same JSON as before.
    const stored = await store.db.selectFrom('events').selectAll().where('id', '=', last.id).executeTakeFirstOrThrow()
    expect(stored.data).toBe(`{"created":${n}}`)
    expect(stored.packed_ids?.byteLength).toBeLessThanOrEqual(1 + n * 17)
    expect(eventJson(stored)).toBe(JSON.stringify(toEvent(stored)))
    expect(JSON.parse(eventJson(stored)).data).toEqual({ created: n, transaction_ids: rows.map((r) => r.id) })
    expect(await count('events')).toBe(before.events + 1)
    expect(await count('transactions')).toBe(before.tx + n)
    await load?.end()
  })

  it.each([
    ['one row', 1, undefined],
    ['a batch (COPY on PostgreSQL)', 150, undefined],
    ['a bulk load', 150, 150],
  ])('an event refused by the database leaves none of the rows of %s', async (_, n, bulkRows) => {
    const taken = eventRow('key:test', 'transaction.created', null, {}, now, t.companyId)
    await store.writeTransaction((trx) => recordEvents(store, trx, [taken]))
    const before = { events: await count('events'), tx: await count('transactions') }
    const rows = Array.from({ length: n }, () => txRow(t))
    const load = bulkRows ? store.hot.bulkLoad({ rows: bulkRows }) : undefined
    const options = { event: () => ({ ...eventRow('key:test', 'transactions.imported', null, {}, now, t.companyId), id: taken.id }) }
    await expect(load ? load.insert(rows, options) : store.hot.insertTransactions(rows, options)).rejects.toThrow()
    expect(await count('events')).toBe(before.events)
    expect(await count('transactions')).toBe(before.tx)
    await load?.end()
  })

  it('a write transaction that fails after its event leaves no event', async () => {
    const before = await count('events')
    await expect(
      store.writeTransaction(async (trx) => {
        await recordEvents(store, trx, [eventRow('key:test', 'bank_account.created', randomUUID(), {}, now, t.companyId)])
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await count('events')).toBe(before)
  })

  it('concurrent writers: a reader paging by sequence sees every event once, in order', async () => {
    const { nextAfter } = await listEvents(store, t.companyId, { limit: 1000 })
    const seen: number[] = []
    let after = nextAfter ?? 0
    const writes = Array.from({ length: 40 }, (_, i) =>
      store.writeTransaction(async (trx) => {
        await recordEvents(store, trx, [eventRow('key:test', 'bank_account.updated', String(i), { i }, now, t.companyId)])
      }),
    )
    const reading = (async () => {
      for (let k = 0; k < 200 && seen.length < 40; k++) {
        const page = await listEvents(store, t.companyId, { after, limit: 1000 })
        for (const e of page.events) seen.push(e.data.i as number)
        after = page.nextAfter ?? after
        await new Promise((r) => setTimeout(r, 2))
      }
    })()
    await Promise.all(writes)
    await reading
    const page = await listEvents(store, t.companyId, { after, limit: 1000 })
    for (const e of page.events) seen.push(e.data.i as number)
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i))
  })

  it('a delivery body (eventJson) is the event as the API writes it, byte for byte', async () => {
    const rows = await store.db.selectFrom('events').selectAll().where('company_id', '=', t.companyId).execute()
    expect(rows.length).toBeGreaterThan(3)
    for (const row of rows) expect(eventJson(row)).toBe(JSON.stringify(toEvent(row)))
  })

  it('an event written before ids were packed (ids in its data) reads as it always did', async () => {
    const ids = [randomUUID(), randomUUID()]
    const old = {
      ...eventRow('key:test', 'transactions.imported', null, {}, now, t.companyId),
      data: JSON.stringify({ created: 2, transaction_ids: ids }),
      packed_ids: null,
    }
    await store.writeTransaction((trx) => recordEvents(store, trx, [old]))
    const row = await store.db.selectFrom('events').selectAll().where('id', '=', old.id).executeTakeFirstOrThrow()
    expect(toEvent(row).data).toEqual({ created: 2, transaction_ids: ids })
    expect(eventJson(row)).toBe(JSON.stringify(toEvent(row)))
  })
})
