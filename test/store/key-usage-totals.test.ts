/**
 * The usage totals kept per key, endpoint and status (api_key_usage, migration 0029): written with
 * the records, they equal a count of the records, on both stores; the migration counts the records
 * an older release wrote.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageStats } from '../../src/domain/api-keys/usage-stats.js'
import { backfill } from '../../src/store/migrations/0029_key_usage_totals.js'
import { backfill as backfillPeriods } from '../../src/store/migrations/0035_key_usage_periods.js'
import type { ApiKeyRow } from '../../src/store/schema.js'
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

  /** The requests per key and ten-minute period, as the records add them up, and as kept (0035). */
  async function periods() {
    const rows = await store.db
      .selectFrom('api_requests')
      .select(['key_id', sql<string>`substr(created_at, 1, 15)`.as('period'), sql<number>`count(*)`.as('requests')])
      .groupBy(['key_id', sql`substr(created_at, 1, 15)`])
      .orderBy('key_id')
      .orderBy('period')
      .execute()
    return rows.map((r) => ({ ...r, requests: Number(r.requests) }))
  }
  async function keptPeriods() {
    const rows = await store.db.selectFrom('api_key_usage_periods').selectAll().orderBy('key_id').orderBy('period').execute()
    return rows.map((r) => ({ ...r, requests: Number(r.requests) }))
  }

  it("a usage read's last day equals a count of the records since a day before, at every edge of a period", async () => {
    const t = await seedTenant(store)
    const keyId = await addKey(store, t.companyId)
    const now = new Date(Date.UTC(2026, 5, 10, 12, 34, 56, 789))
    const dayAgo = now.getTime() - 86_400_000
    // Records on both sides of the day's start, in the period it starts in, on period edges, and later.
    const offsets = [-700_000, -600_001, -1, 0, 1, 1000, 183_211, 183_212, 600_000, 3_600_000, 86_000_000, 86_400_000]
    const rows: NewApiRequestRow[] = offsets.map((o, i) => ({
      key_id: keyId,
      company_id: t.companyId,
      method: 'GET',
      endpoint: '/api-v1/company',
      status_code: 200,
      response_time_ms: i,
      created_at: new Date(dayAgo + o).toISOString(),
    }))
    await store.hot.insertApiRequests(rows.slice(0, 5))
    await store.hot.insertApiRequests(rows.slice(5))
    const key = (await store.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow()) as ApiKeyRow
    // Each time a read may happen at: the day's start on, just before, just after a period's edge.
    for (const shift of [0, -789, -56_789, 3_211, 183_211, 183_212, 600_000 - 1]) {
      const at = new Date(now.getTime() + shift)
      const since = new Date(at.getTime() - 86_400_000).toISOString()
      const counted = await store.db
        .selectFrom('api_requests')
        .select(sql<number>`count(*)`.as('n'))
        .where('key_id', '=', keyId)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow()
      const stats = await usageStats(store, key, 5, at)
      expect(stats.last_24h_requests, `read at ${at.toISOString()}`).toBe(Number(counted.n))
      expect(stats.total_requests).toBe(offsets.length)
      // The newest five, newest first.
      expect(stats.recent_requests.map((r) => r.response_time_ms)).toEqual([11, 10, 9, 8, 7])
    }
    expect(await keptPeriods()).toEqual(await periods())
  })

  it('the periods are written with the records and equal a count of them; the migration counts older records', async () => {
    const want = await periods()
    expect(want.length).toBeGreaterThan(1)
    expect(await keptPeriods()).toEqual(want)
    await store.db.deleteFrom('api_key_usage_periods').execute()
    await backfillPeriods(store.db)
    expect(await keptPeriods()).toEqual(want)
  })
})
