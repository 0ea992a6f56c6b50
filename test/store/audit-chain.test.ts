/**
 * The audit trail's hash chain (src/store/audit-chain.ts, docs/audit.md) on both stores: entries
 * appended in one call or many, by concurrent writers, chain without a fork; an SQL UPDATE, DELETE
 * or forged INSERT of one row is found by verify with that entry named; migration 0017 chains the
 * entries already there.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { appendAudit, entryHash, GENESIS, verifyChain } from '../../src/store/audit-chain.js'
import { migrate, migrations } from '../../src/store/migrations/index.js'
import type { NewAuditEntryRow } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, rawKysely, seedTenant, STORES, type TestDatabase } from './fixtures.js'

function entry(companyId: string, i: number): NewAuditEntryRow {
  return {
    company_id: companyId,
    transaction_id: randomUUID(),
    actor: 'user:u1',
    action: 'update',
    changes: JSON.stringify({ amount: { before: i, after: i + 1 } }),
    created_at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
  }
}

describe.each(STORES)('audit chain on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f().catch(() => {})
  })

  async function open(): Promise<{ database: TestDatabase; store: Store; companyId: string; ids: number[] }> {
    const database = await freshDatabase(kind)
    cleanup.push(() => database.remove())
    const store = await database.open()
    cleanup.push(() => store.close())
    const { companyId } = await seedTenant(store)
    const other = await seedTenant(store, 'Other')
    // Two calls, another company's entries between them: each company has its own chain.
    await store.writeTransaction((trx) =>
      appendAudit(
        trx,
        store.sql,
        [0, 1, 2].map((i) => entry(companyId, i)),
      ),
    )
    await store.writeTransaction((trx) => appendAudit(trx, store.sql, [entry(other.companyId, 0)]))
    await store.writeTransaction((trx) =>
      appendAudit(
        trx,
        store.sql,
        [3, 4, 5, 6].map((i) => entry(companyId, i)),
        2,
      ),
    )
    const rows = await store.db.selectFrom('audit_entries').select('id').where('company_id', '=', companyId).orderBy('id').execute()
    return { database, store, companyId, ids: rows.map((r) => Number(r.id)) }
  }

  it('chains every entry to the one before it and keeps the head', async () => {
    const { store, companyId, ids } = await open()
    const rows = await store.db.selectFrom('audit_entries').selectAll().where('company_id', '=', companyId).orderBy('id').execute()
    expect(rows).toHaveLength(7)
    expect(rows[0].prev_hash).toBe(GENESIS)
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i].hash).toBe(entryHash(rows[i].prev_hash!, rows[i]))
      if (i > 0) expect(rows[i].prev_hash).toBe(rows[i - 1].hash)
    }
    const r = await verifyChain(store.db, companyId)
    expect(r).toEqual({ intact: true, entries: 7, head: { id: ids[6], hash: rows[6].hash }, broken: null })
  })

  it('names an entry changed by an SQL UPDATE', async () => {
    const { store, companyId, ids } = await open()
    await store.db.updateTable('audit_entries').set({ changes: '{"amount":{"before":2,"after":300}}' }).where('id', '=', ids[2]).execute()
    const r = await verifyChain(store.db, companyId)
    expect(r.intact).toBe(false)
    expect(r.broken).toMatchObject({ kind: 'changed', entry_id: ids[2], after_id: ids[1] })
    expect(r.broken!.message).toContain(`#${ids[2]}`)
  })

  it('names the place of an entry removed by an SQL DELETE, in the middle and at the end', async () => {
    const { store, companyId, ids } = await open()
    await store.db.deleteFrom('audit_entries').where('id', '=', ids[3]).execute()
    const r = await verifyChain(store.db, companyId)
    expect(r.broken).toMatchObject({ kind: 'removed', entry_id: ids[4], after_id: ids[2] })
    expect(r.broken!.message).toContain(`between #${ids[2]} and`)

    const last = await open()
    await last.store.db.deleteFrom('audit_entries').where('id', '=', last.ids[6]).execute()
    const e = await verifyChain(last.store.db, last.companyId)
    expect(e.broken).toMatchObject({ kind: 'removed', entry_id: null, after_id: last.ids[5] })
    expect(e.broken!.message).toContain(`#${last.ids[6]}`)
  })

  it('names a forged entry inserted by SQL, with no hash or with one chained onto the head', async () => {
    const { store, companyId, ids } = await open()
    const forged = await store.db.insertInto('audit_entries').values(entry(companyId, 9)).returning('id').executeTakeFirstOrThrow()
    const r = await verifyChain(store.db, companyId)
    expect(r.broken).toMatchObject({ kind: 'inserted', entry_id: Number(forged.id), after_id: ids[6] })

    const b = await open()
    const head = await b.store.db
      .selectFrom('audit_chain_heads')
      .selectAll()
      .where('company_id', '=', b.companyId)
      .executeTakeFirstOrThrow()
    const e = entry(b.companyId, 9)
    const chained = await b.store.db
      .insertInto('audit_entries')
      .values({ ...e, prev_hash: head.hash, hash: entryHash(head.hash, e) })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect((await verifyChain(b.store.db, b.companyId)).broken).toMatchObject({ kind: 'inserted', entry_id: Number(chained.id) })
  })

  it('does not fork under concurrent writers from two connections', async () => {
    const { database, store, companyId } = await open()
    const second = await database.open()
    cleanup.push(() => second.close())
    const writes = [store, second].flatMap((s, w) =>
      Array.from({ length: 10 }, (_, i) =>
        s.writeTransaction((trx) => appendAudit(trx, s.sql, [entry(companyId, 100 + w * 10 + i), entry(companyId, 200 + w * 10 + i)])),
      ),
    )
    await Promise.all(writes)
    const r = await verifyChain(store.db, companyId)
    expect(r).toMatchObject({ intact: true, entries: 7 + 40 })
  })

  it('migration 0017 chains the entries written before it', async () => {
    const database = await freshDatabase(kind)
    cleanup.push(() => database.remove())
    const raw = await rawKysely(database)
    cleanup.push(() => raw.db.destroy())
    const all = Object.entries(migrations(kind))
    const at = all.findIndex(([name]) => name === '0017_audit_chain')
    await migrate(raw.db, Object.fromEntries(all.slice(0, at)), raw.schema)
    const a = randomUUID()
    const b = randomUUID()
    // Rows as written before 0017: without prev_hash and hash.
    await raw.db
      .insertInto('audit_entries')
      .values([entry(a, 0), entry(b, 0), entry(a, 1), entry(a, 2)])
      .execute()
    await raw.db.destroy()
    cleanup.pop()
    const store = await database.open()
    cleanup.push(() => store.close())
    expect(await verifyChain(store.db, a)).toMatchObject({ intact: true, entries: 3 })
    expect(await verifyChain(store.db, b)).toMatchObject({ intact: true, entries: 1 })
    // New entries continue the migrated chain.
    await store.writeTransaction((trx) => appendAudit(trx, store.sql, [entry(a, 3)]))
    expect(await verifyChain(store.db, a)).toMatchObject({ intact: true, entries: 4 })
    await store.db
      .updateTable('audit_entries')
      .set({ actor: 'user:someone-else' })
      .where('company_id', '=', a)
      .where('action', '=', 'update')
      .execute()
    expect((await verifyChain(store.db, a)).broken).toMatchObject({ kind: 'changed', after_id: null })
  })
})
