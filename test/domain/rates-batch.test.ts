/**
 * A batch loads the rates it needs once (the hot path): one query of exchange_rates per
 * currency over the batch's dates, never one a row, on both stores; each row still gets the rate of
 * its own date, or of the latest earlier one within reach.
 */
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTransactionBatch } from '../../src/domain/transactions/create.js'
import { DEFAULT_DATE_WINDOW } from '../../src/domain/transactions/plausibility.js'
import type { Db } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, type TestDatabase, type Tenant } from '../store/fixtures.js'

/** The store's Kysely, counting the queries that start from exchange_rates. */
function counting(db: Kysely<Db>): { db: Kysely<Db>; count: () => number } {
  let n = 0
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (prop === 'selectFrom')
        return (table: string) => {
          if (table === 'exchange_rates') n++
          return (value as (t: string) => unknown).call(target, table)
        }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { db: wrapped, count: () => n }
}

const day = (i: number) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10)

describe.each(STORES)('a batch and the rates table on %s', (kind) => {
  let database: TestDatabase
  let store: Store
  let t: Tenant

  beforeAll(async () => {
    database = await freshDatabase(kind)
    store = await database.open()
    t = await seedTenant(store)
    // Weekday rates for the year, EUR and GBP to the tenant's USD base.
    const rows = []
    for (let i = 0; i < 365; i++) {
      const date = day(i)
      const wd = new Date(`${date}T00:00:00Z`).getUTCDay()
      if (wd === 0 || wd === 6) continue
      rows.push({
        company_id: t.companyId,
        currency_code: 'EUR',
        rate_date: date,
        rate: `1.${String(1000 + i).padStart(4, '0')}`,
        source: 'test',
        created_at: 'x',
        updated_at: 'x',
      })
      rows.push({
        company_id: t.companyId,
        currency_code: 'GBP',
        rate_date: date,
        rate: `1.${String(2000 + i).padStart(4, '0')}`,
        source: 'test',
        created_at: 'x',
        updated_at: 'x',
      })
    }
    for (let i = 0; i < rows.length; i += 200)
      await store.db
        .insertInto('exchange_rates')
        .values(rows.slice(i, i + 200))
        .execute()
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  it('2,001 rows in two currencies over a year: two rates queries, each row at its date (weekends: Friday)', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({
      bank_account_id: t.accountId,
      transaction_date: day(i % 365),
      description: `row ${i}`,
      amount: '-1.00',
      currency_code: i % 2 ? 'EUR' : 'GBP',
    }))
    // and one more, of a day with no rate in the 7 days before
    items.push({
      bank_account_id: t.accountId,
      transaction_date: '2024-12-20',
      description: 'too early',
      amount: '-1.00',
      currency_code: 'EUR',
    })
    const c = counting(store.db)
    const actor = { companyId: t.companyId, kind: 'api_key' as const, keyId: t.keyId, scopes: ['read', 'write', 'transactions'] as const }
    const built = await createTransactionBatch(
      store,
      { ...actor, scopes: [...actor.scopes] },
      items,
      new Date('2025-12-31T12:00:00Z'),
      DEFAULT_DATE_WINDOW,
      c.db,
    )
    expect(built.errors).toEqual([expect.objectContaining({ index: 2000, message: expect.stringContaining('EUR on 2024-12-20') })])
    expect(built.rows).toHaveLength(2000)
    expect(c.count()).toBe(2)
    for (const [k, row] of built.rows.entries()) {
      const i = built.indexes[k]
      const date = day(i % 365)
      const wd = new Date(`${date}T00:00:00Z`).getUTCDay()
      const back = wd === 0 ? 2 : wd === 6 ? 1 : 0
      const rateDay = (i % 365) - back
      expect(row.exchange_rate_date).toBe(day(rateDay))
      expect(row.exchange_rate).toBe(`1.${String((i % 2 ? 1000 : 2000) + rateDay).padStart(4, '0')}`)
    }
  })
})
