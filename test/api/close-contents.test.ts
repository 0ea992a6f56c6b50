/**
 * What a close records of its month, through both transports on both stores: the rows
 * and figures at the close, and GET /close/{month}/verify naming each row inserted, edited or
 * deleted by SQL since (the lock triggers dropped first, as someone with the database could), and an
 * audit entry about the month written after the close, with no export recorded.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { previousMonth } from '../../src/domain/accounts/period-lock.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))

describe.each(MATRIX)('the contents of a close over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let closer: Client
  const ids: string[] = []

  beforeAll(async () => {
    h = await createHarness(kind, storeKind, { own: true })
    a = await h.tenant('Contents')
    c = h.client({ apiKey: a.key })
    const owner = h.client({ token: a.token })
    closer = h.client({ apiKey: (await owner.keys.create({ name: 'closer', scopes: ['read', 'close'] })).key })
    const acct = (await c.accounts.create({ name: 'Books', account_type: 'checking', currency_code: 'USD' })).id
    for (const [day, amount] of [
      ['04', '-12.50'],
      ['11', '250.00'],
      ['19', '-7.25'],
    ])
      ids.push(
        (await c.transactions.create({ bank_account_id: acct, transaction_date: `${M}-${day}`, amount, description: `Row ${day}` })).id,
      )
    await c.transactions.create({ bank_account_id: acct, transaction_date: today, amount: '-1.00', description: 'After' })
    await closer.close.month(M, { force: true, reason: 'contents test' })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('records the rows and figures; verify finds them unchanged, without any export', async () => {
    const v = await c.close.verify(M)
    expect(v.exports).toEqual([])
    expect(v.contents).toMatchObject({
      recorded: true,
      rows_then: 3,
      rows_now: 3,
      changed: 0,
      message: null,
      inserted: [],
      edited: [],
      deleted: [],
    })
    expect(v.contents.sha256_now).toBe(v.contents.sha256_then)
    expect(v.contents.figures_then).toEqual([
      { bank_account_id: expect.any(String), currency_code: 'USD', transactions: 3, total: '230.25' },
    ])
    expect(v.contents.figures_now).toEqual(v.contents.figures_then)
    expect(v.audit_after_close).toEqual([])
  })

  it('names each row inserted, edited or deleted by SQL since the close, and an audit entry written after it', async () => {
    const db = h.store.db
    const on = storeKind === 'postgres' ? ' ON transactions' : ''
    for (const t of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER transactions_lock_${t}${on}`).execute(db)
    const [edited, deleted, kept] = ids
    // Minor units: 1.00 less.
    await sql`UPDATE transactions SET amount = amount - 100 WHERE transaction_date = ${`${M}-04`}`.execute(db)
    await sql`DELETE FROM transactions WHERE transaction_date = ${`${M}-11`}`.execute(db)
    const forged = await h.store.db
      .selectFrom('transactions')
      .selectAll()
      .where('transaction_date', '=', `${M}-19`)
      .executeTakeFirstOrThrow()
    const { seq: _seq, ...copy } = forged
    const newId = randomUUID()
    await db
      .insertInto('transactions')
      .values({ ...copy, id: h.store.tx.idParam(newId) as typeof copy.id, import_ref: null, statement_ref: null })
      .execute()
    await db
      .insertInto('audit_entries')
      .values({
        company_id: a.companyId,
        transaction_id: kept,
        actor: 'user:nobody',
        action: 'update',
        changes: '{"description":{"before":"Row 19","after":"Row 19!"}}',
        created_at: new Date().toISOString(),
        prev_hash: null,
        hash: null,
      })
      .execute()

    const v = await c.close.verify(M)
    expect(v.contents).toMatchObject({ rows_then: 3, rows_now: 3, changed: 3, inserted: [newId], edited: [edited], deleted: [deleted] })
    expect(v.contents.message).toContain(`1 row inserted (${newId})`)
    expect(v.contents.message).toContain(`1 row edited (${edited})`)
    expect(v.contents.message).toContain(`1 row deleted (${deleted})`)
    expect(v.contents.figures_now).toEqual([expect.objectContaining({ transactions: 3, total: '-28.00' })])
    expect(v.audit_after_close).toEqual([expect.objectContaining({ transaction_id: kept, action: 'update' })])
  })
})
