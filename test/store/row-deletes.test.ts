/**
 * Deleting many transactions by seq (store.writes.deleteTransactions, row-deletes.ts) and appending
 * audit entries (store.writes.appendAudit) on both stores: exactly the rows named go, by runs of
 * consecutive seqs; on SQLite a delete of most of the table drops and builds its indexes again in
 * the same transaction, so the indexes afterwards are the ones before, and a rollback keeps all.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { verifyChain } from '../../src/store/audit-chain.js'
import { seqRuns } from '../../src/store/row-deletes.js'
import type { NewAuditEntryRow } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, txRow } from './fixtures.js'

describe('seqRuns', () => {
  it('sorts and joins consecutive seqs into runs, once each', () => {
    expect(seqRuns([7, 3, 4, 5, 9, 10, 4, 1])).toEqual([
      [1, 1],
      [3, 5],
      [7, 7],
      [9, 10],
    ])
    expect(seqRuns([])).toEqual([])
  })
})

describe.each(STORES)('deleting transactions by seq on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f().catch(() => {})
  })

  const open = async () => {
    const database = await freshDatabase(kind)
    cleanup.push(() => database.remove())
    const store = await database.open()
    cleanup.push(() => store.close())
    return { store, t: await seedTenant(store) }
  }
  const seqs = async (store: Store) =>
    (await store.db.selectFrom('transactions').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq))
  const indexes = async (store: Store) =>
    store.dialect === 'sqlite'
      ? (
          await store.db
            .selectFrom('sqlite_master' as never)
            .select(['name' as never, 'sql' as never])
            .where('tbl_name' as never, '=', 'transactions' as never)
            .where('type' as never, '=', 'index' as never)
            .orderBy('name' as never)
            .execute()
        ).map((r) => JSON.stringify(r))
      : []

  it('deletes exactly the seqs given, in runs and alone, and keeps the rest', async () => {
    const { store, t } = await open()
    await store.hot.insertTransactions(Array.from({ length: 30 }, () => txRow(t)))
    const all = await seqs(store)
    const gone = [...all.slice(2, 10), all[12], ...all.slice(20, 25)]
    await store.writeTransaction((trx) => store.writes.deleteTransactions(trx, gone))
    expect(await seqs(store)).toEqual(all.filter((s) => !gone.includes(s)))
  })

  it('a delete of most of a large table leaves the same indexes; rolled back, it leaves every row', async () => {
    const { store, t } = await open()
    for (let i = 0; i < 12; i++) await store.hot.insertTransactions(Array.from({ length: 1000 }, () => txRow(t)))
    const all = await seqs(store)
    const before = await indexes(store)
    if (kind === 'sqlite') expect(before.length).toBeGreaterThan(5)
    await expect(
      store.writeTransaction(async (trx) => {
        await store.writes.deleteTransactions(trx, all.slice(0, 11_000))
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(await seqs(store)).toEqual(all)
    expect(await indexes(store)).toEqual(before)
    await store.writeTransaction((trx) => store.writes.deleteTransactions(trx, all.slice(0, 11_000)))
    expect(await seqs(store)).toEqual(all.slice(11_000))
    expect(await indexes(store)).toEqual(before)
    // The indexes answer: the unique id index still refuses a second row of an id.
    const [left] = await store.db.selectFrom('transactions').selectAll().execute()
    await expect(
      store.db
        .insertInto('transactions')
        .values({ ...left, seq: undefined } as never)
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i)
  })

  it('audit entries appended inside a transaction and outside one keep the chain intact', async () => {
    const { store, t } = await open()
    const entry = (n: number): NewAuditEntryRow => ({
      company_id: t.companyId,
      transaction_id: `t${n}`,
      actor: 'test',
      action: 'note',
      changes: JSON.stringify({ n }),
      created_at: '2026-11-26T10:00:00.000Z',
    })
    await store.writeTransaction((trx) => store.writes.appendAudit(trx, [entry(1), entry(2), entry(3)]))
    await store.writes.appendAudit(store.db, [entry(4)])
    await expect(
      store.writeTransaction(async (trx) => {
        await store.writes.appendAudit(trx, [entry(5)])
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(await verifyChain(store.db, t.companyId)).toMatchObject({ intact: true })
    const rows = await store.db
      .selectFrom('audit_entries')
      .select('transaction_id')
      .where('company_id', '=', t.companyId)
      .orderBy('id')
      .execute()
    expect(rows.map((r) => r.transaction_id)).toEqual(['t1', 't2', 't3', 't4'])
  })
})
