/**
 * Migration 0028 on both stores (src/store/creations.ts, docs/audit.md): the rows an older finctl
 * wrote get one `rows_created` entry per company, so that verify is intact over them and still
 * names a row inserted by SQL afterwards; rows the hot path inserts later chain their own entry, also
 * batches written at once by two processes.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { verifyAudit } from '../../src/domain/transactions/verify.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, takeBackAfter, txRow } from './fixtures.js'

describe.each(STORES)('creations in the chain on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f().catch(() => {})
  })

  it('migration 0028 records the rows already there; later rows chain their own entry; an SQL insert is named', async () => {
    const database = await freshDatabase(kind)
    cleanup.push(() => database.remove())
    let store: Store = await database.open()
    const t = await seedTenant(store)
    await takeBackAfter(store, '0027_opening_rates')
    // Rows as an older finctl wrote them: no rows_created entry.
    const old = [txRow(t), txRow(t), txRow(t)]
    await store.tx.prepareActors(old)
    await store.writeTransaction((trx) => store.tx.insert(trx, old))
    await store.close()
    store = await database.open()
    cleanup.push(() => store.close())
    const entries = await store.db.selectFrom('audit_entries').selectAll().where('action', '=', 'rows_created').execute()
    expect(entries).toHaveLength(1)
    expect(JSON.parse(entries[0].changes)).toMatchObject({ count: 3 })
    expect(await verifyAudit(store, t.companyId)).toMatchObject({ intact: true, transactions: 3 })

    const later = [txRow(t, { created_at: '2026-11-21T08:00:00.000Z', updated_at: '2026-11-21T08:00:00.000Z' }), txRow(t)]
    await store.hot.insertTransactions(later)
    expect(await verifyAudit(store, t.companyId)).toMatchObject({ intact: true, transactions: 5 })

    // Outside finctl: a row past the migration's rows, of no creating write.
    const forged = txRow(t, { created_at: '2026-11-22T08:00:00.000Z', updated_at: '2026-11-22T08:00:00.000Z' })
    await store.db.insertInto('transactions').values(store.tx.encode(forged)).execute()
    const v = await verifyAudit(store, t.companyId)
    expect(v.intact).toBe(false)
    expect(v.broken).toMatchObject({ kind: 'row_inserted', transaction_id: forged.id })
  })

  it('concurrent batches (COPY on PostgreSQL) from two stores chain their creations without a fork', async () => {
    const database = await freshDatabase(kind)
    cleanup.push(() => database.remove())
    const store = await database.open()
    cleanup.push(() => store.close())
    const second = await database.open()
    cleanup.push(() => second.close())
    const t = await seedTenant(store)
    const batch = () => Array.from({ length: 150 }, () => txRow(t))
    await Promise.all([store, second, store, second, store, second].map((s) => s.hot.insertTransactions(batch())))
    const entries = await store.db.selectFrom('audit_entries').select('changes').where('action', '=', 'rows_created').execute()
    // One creator, time and way: every batch's entry counts in one group.
    expect(entries.map((e) => JSON.parse(e.changes).count)).toEqual([150, 150, 150, 150, 150, 150])
    expect(await verifyAudit(store, t.companyId)).toMatchObject({ intact: true, entries: 6, transactions: 900 })
  })
})
