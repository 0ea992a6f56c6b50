/**
 * Creations in the audit chain (docs/audit.md, "Rows in the chain"), through both transports on
 * both stores: single creates, batches, a bulk load (COPY on PostgreSQL) and a statement each chain a
 * `rows_created` entry, updates and deletes through finctl keep verify intact, and GET /audit/verify
 * finds a transaction row inserted by SQL into an open month (named by its id), one inserted with
 * another write's creation fields (named by that write's entry), and one deleted by SQL.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, type Harness, MATRIX, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)

describe.each(MATRIX)('creations in the audit chain over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let acct: string
  const made: string[] = []

  /** A copy of a stored row (as the database holds it) under a new id, inserted by SQL. */
  async function forge(of: string, over: Record<string, unknown> = {}): Promise<string> {
    const row = await h.store.db.selectFrom('transactions').selectAll().where('id', '=', h.store.tx.idParam(of)!).executeTakeFirstOrThrow()
    const { seq: _seq, ...copy } = row
    const id = randomUUID()
    await h.store.db
      .insertInto('transactions')
      .values({ ...copy, id: h.store.tx.idParam(id) as typeof copy.id, import_ref: null, statement_ref: null, ...over })
      .execute()
    return id
  }
  const drop = (id: string) => h.store.db.deleteFrom('transactions').where('id', '=', h.store.tx.idParam(id)!).execute()

  beforeAll(async () => {
    h = await createHarness(kind, storeKind, { own: true })
    a = await h.tenant('Creations')
    c = h.client({ apiKey: a.key })
    acct = (await c.accounts.create({ name: 'Ops', account_type: 'checking', currency_code: 'USD' })).id
    made.push((await c.transactions.create({ bank_account_id: acct, transaction_date: today, amount: '-4.50', description: 'Cafe' })).id)
    const batch = await c.transactions.batch(
      ['1.00', '2.00', '3.00'].map((amount, i) => ({ bank_account_id: acct, transaction_date: today, amount, description: `B${i}` })),
    )
    made.push(...batch.created.map((t) => t.id))
    // Large enough for PostgreSQL's COPY path, as an import's batches.
    const rows = Array.from({ length: 150 }, (_, i) => ({
      bank_account_id: acct,
      transaction_date: today,
      amount: `-${i + 1}.00`,
      description: `Bulk ${i}`,
      import_ref: `bulk-${i}`,
    }))
    await c.transactions.batchMinimal(rows.slice(0, 120), { bulkRows: 150 })
    await c.transactions.batchMinimal(rows.slice(120), { bulkRows: 150, bulkEnd: true })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('chains one rows_created entry per creating write; verify checks every row, intact after updates and deletes', async () => {
    const entries = await h.store.db
      .selectFrom('audit_entries')
      .select(['action', 'changes'])
      .where('company_id', '=', a.companyId)
      .where('action', '=', 'rows_created')
      .orderBy('id')
      .execute()
    expect(entries.map((e) => JSON.parse(e.changes).count)).toEqual([1, 3, 120, 30])
    await c.transactions.update(made[1], { amount: '9.99', description: 'changed' })
    await c.transactions.delete(made[2])
    const v = await c.audit.verify()
    expect(v).toMatchObject({ intact: true, transactions: 1 + 3 + 150 - 1, broken: null })
  })

  it("a statement's new lines chain their creation: verify stays intact and counts them", async () => {
    const before = await c.audit.verify()
    const st = await c.statements.upload({
      bank_account_id: acct,
      file_name: 'lines.csv',
      content_base64: Buffer.from(`Date,Description,Amount\n${today},Refund,77.77\n${today},Deposit,88.88\n`).toString('base64'),
      exchange_rate: '1',
    })
    expect((await c.statements.wait(st.id)).transaction_count).toBe(2)
    const created = await h.store.db
      .selectFrom('audit_entries')
      .select('changes')
      .where('company_id', '=', a.companyId)
      .where('action', '=', 'rows_created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(created.changes)).toMatchObject({ count: 2, created_via: 'statement_import' })
    expect(await c.audit.verify()).toMatchObject({ intact: true, transactions: before.transactions + 2 })
  })

  it('names a transaction row inserted by SQL into an open month', async () => {
    const forged = await forge(made[0], { created_at: new Date().toISOString(), created_by: null, created_via: null })
    try {
      const v = await c.audit.verify()
      expect(v.intact).toBe(false)
      expect(v.broken).toMatchObject({ kind: 'row_inserted', transaction_id: forged, entry_id: null })
      expect(v.broken!.message).toContain(forged)
    } finally {
      await drop(forged)
    }
    expect((await c.audit.verify()).intact).toBe(true)
  })

  it('names a row whose creation time was changed by SQL (it leaves its write)', async () => {
    const at = (id: string) => h.store.db.selectFrom('transactions').select('created_at').where('id', '=', h.store.tx.idParam(id)!)
    const was = (await at(made[1]).executeTakeFirstOrThrow()).created_at
    const move = (to: string) =>
      h.store.db.updateTable('transactions').set({ created_at: to }).where('id', '=', h.store.tx.idParam(made[1])!).execute()
    await move('2020-01-01T00:00:00.000Z')
    try {
      expect((await c.audit.verify()).broken).toMatchObject({ kind: 'row_inserted', transaction_id: made[1] })
    } finally {
      await move(was)
    }
    expect((await c.audit.verify()).intact).toBe(true)
  })

  it("names the creating write's entry when a row is inserted with its creation fields copied", async () => {
    const forged = await forge(made[0])
    const entry = await h.store.db
      .selectFrom('audit_entries')
      .select('id')
      .where('company_id', '=', a.companyId)
      .where('action', '=', 'rows_created')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    try {
      const v = await c.audit.verify()
      expect(v.broken).toMatchObject({ kind: 'row_inserted', entry_id: Number(entry.id), transaction_id: null })
      expect(v.broken!.message).toContain(`#${entry.id}`)
    } finally {
      await drop(forged)
    }
  })

  it('finds a row deleted by SQL, and a changed id', async () => {
    const db = h.store.db
    const on = storeKind === 'postgres' ? ' ON transactions' : ''
    // No month is closed here; the triggers refuse nothing, dropping them is as someone with the database would.
    for (const t of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER IF EXISTS transactions_lock_${t}${on}`).execute(db)
    await db
      .updateTable('transactions')
      .set({ id: h.store.tx.idParam(randomUUID())! })
      .where('id', '=', h.store.tx.idParam(made[3])!)
      .execute()
    expect((await c.audit.verify()).broken).toMatchObject({ kind: 'rows_changed', transaction_id: null })
    await drop(made[0])
    const v = await c.audit.verify()
    expect(v.intact).toBe(false)
    expect(v.broken).toMatchObject({ kind: 'rows_deleted', transaction_id: null })
  })
})
