/**
 * The usage totals kept per key, endpoint and status (api_key_usage, migration 0029): written with
 * the records, they equal a count of the records, on both stores; the migration counts the records
 * an older release wrote.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backfill } from '../../src/store/migrations/0029_key_usage_totals.js'
import type { NewApiRequestRow } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'
import { addKey, freshDatabase, seedTenant, STORES, type TestDatabase } from './fixtures.js'

describe.each(STORES)('kept usage totals on %s', (kind) => {
  let database: TestDatabase
  let store: Store
  beforeAll(async () => {
    database = await freshDatabase(kind)
    store = await database.open()
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  /** The totals as the records add them up. */
  async function counted() {
    const rows = await store.db
      .selectFrom('api_requests')
      .select([
        'key_id',
        'endpoint',
        'status_code',
        sql<number>`count(*)`.as('requests'),
        sql<number>`sum(response_time_ms)`.as('response_ms'),
        sql<string>`max(created_at)`.as('last_at'),
      ])
      .groupBy(['key_id', 'endpoint', 'status_code'])
      .orderBy('key_id')
      .orderBy('endpoint')
      .orderBy('status_code')
      .execute()
    return rows.map((r) => ({ ...r, requests: Number(r.requests), response_ms: Number(r.response_ms) }))
  }
  async function kept() {
    const rows = await store.db
      .selectFrom('api_key_usage')
      .selectAll()
      .orderBy('key_id')
      .orderBy('endpoint')
      .orderBy('status_code')
      .execute()
    return rows.map((r) => ({ ...r, requests: Number(r.requests), response_ms: Number(r.response_ms) }))
  }

  it('are written with the records and equal a count of them; the migration counts older records', async () => {
    const t = await seedTenant(store)
    const keys = [await addKey(store, t.companyId), await addKey(store, t.companyId)]
    const row = (i: number): NewApiRequestRow => ({
      key_id: keys[i % 2],
      company_id: t.companyId,
      method: 'GET',
      endpoint: i % 3 ? '/api-v1/company' : '/api-v1/transactions',
      status_code: i % 5 ? 200 : 404,
      response_time_ms: i,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    })
    // Two writes, the second adding to groups the first made (in another order of time).
    await store.hot.insertApiRequests(Array.from({ length: 30 }, (_, i) => row(i)))
    await store.hot.insertApiRequests(Array.from({ length: 30 }, (_, i) => row(59 - i)))
    const want = await counted()
    expect(want.reduce((n, g) => n + g.requests, 0)).toBe(60)
    expect(await kept()).toEqual(want)
    // As a database of an older release: records without totals, counted by the migration.
    await store.db.deleteFrom('api_key_usage').execute()
    await backfill(store.db)
    expect(await kept()).toEqual(want)
  })
})
