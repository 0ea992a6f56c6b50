/**
 * The period lock inside the write (migration 0025): on both stores a transaction row dated on
 * or before its company's lock date cannot be inserted, updated or deleted by any path, the hot
 * insert, a bulk load or plain SQL, while rows of open months still can.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, txRow, type Tenant, type TestDatabase } from './fixtures.js'

describe.each(STORES)('the period lock inside the write, on %s', (kind) => {
  let d: TestDatabase
  let store: Store
  let t: Tenant
  const august = () => txRow(t, { transaction_date: '2026-08-10', posted_date: undefined })
  const september = () => txRow(t, { transaction_date: '2026-09-10', posted_date: undefined })
  const setLock = (date: string | null) =>
    store.db.updateTable('companies').set({ lock_date: date }).where('id', '=', t.companyId).execute()
  const count = async (date: string) =>
    Number(
      (
        await store.db
          .selectFrom('transactions')
          .select((e) => e.fn.countAll().as('n'))
          .where('transaction_date', '=', date)
          .executeTakeFirstOrThrow()
      ).n,
    )

  beforeAll(async () => {
    d = await freshDatabase(kind)
    store = await d.open()
    t = await seedTenant(store)
    await store.hot.insertTransactions([august(), september()])
    await setLock('2026-08-31')
  })
  afterAll(async () => {
    await store?.close()
    await d?.remove()
  })

  it('refuses a row of the closed month from the hot insert and a bulk load, and takes the open month', async () => {
    await expect(store.hot.insertTransactions([september(), august()])).rejects.toThrow(/finctl_period_locked/)
    const load = store.hot.bulkLoad({ rows: 100_000 })
    await expect(load.insert([september(), august()])).rejects.toThrow(/finctl_period_locked/)
    await load.end()
    // Nothing of either write went in: the whole statement is refused.
    expect(await count('2026-09-10')).toBe(1)
    expect(await count('2026-08-10')).toBe(1)
    await store.hot.insertTransactions([september()])
    expect(await count('2026-09-10')).toBe(2)
  })

  it('refuses SQL that inserts, edits, moves or deletes a row of the closed month', async () => {
    const q = (text: string) => sql.raw(text).execute(store.db)
    await expect(q(`UPDATE transactions SET description = 'forged' WHERE transaction_date = '2026-08-10'`)).rejects.toThrow(
      /finctl_period_locked/,
    )
    await expect(q(`DELETE FROM transactions WHERE transaction_date = '2026-08-10'`)).rejects.toThrow(/finctl_period_locked/)
    // Moving an open row into the closed month, or a closed one out of it.
    await expect(q(`UPDATE transactions SET transaction_date = '2026-08-11' WHERE transaction_date = '2026-09-10'`)).rejects.toThrow(
      /finctl_period_locked/,
    )
    await expect(q(`UPDATE transactions SET transaction_date = '2026-09-11' WHERE transaction_date = '2026-08-10'`)).rejects.toThrow(
      /finctl_period_locked/,
    )
    await expect(
      q(`INSERT INTO transactions (id, company_key, account_key, transaction_date, description, amount, currency_code, exchange_rate,
          base_amount, status, is_reconciled, tags, created_at)
        SELECT '${crypto.randomUUID()}', company_key, account_key, '2026-08-12', 'forged', 1, currency_code, exchange_rate, 1, status,
          0, tags, created_at FROM transactions WHERE transaction_date = '2026-09-10' LIMIT 1`),
    ).rejects.toThrow(/finctl_period_locked/)
    expect(await count('2026-08-10')).toBe(1)
    expect(await count('2026-08-11')).toBe(0)
    expect(await count('2026-08-12')).toBe(0)
    // The open month is written as ever.
    await q(`UPDATE transactions SET description = 'edited' WHERE transaction_date = '2026-09-10'`)
  })

  it('lets every write through again once the month is reopened', async () => {
    await setLock('2026-07-31')
    await store.hot.insertTransactions([august()])
    await sql.raw(`DELETE FROM transactions WHERE transaction_date = '2026-08-10'`).execute(store.db)
    expect(await count('2026-08-10')).toBe(0)
  })
})
