/**
 * The usage records numbered per key (api_requests.seq, migration 0043), on both stores: written in
 * order after the key's usage_count, numbered by the migration for older records, and a usage read's
 * newest records read as a range of them, which on PostgreSQL reads only those records even with no
 * statistics of the table yet (it used to read and sort every record of the key).
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageStats } from '../../src/domain/api-keys/usage-stats.js'
import { backfill } from '../../src/store/migrations/0043_usage_newest.js'
import { keyUsagePartsSql } from '../../src/store/queries.js'
import type { ApiKeyRow, NewApiRequestRow } from '../../src/store/schema.js'
import type { Store } from '../../src/store/store.js'
import { addKey, freshDatabase, seedTenant, STORES, type TestDatabase } from './fixtures.js'

describe.each(STORES)('usage records numbered per key on %s', (kind) => {
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

  const record = (keyId: string, companyId: string, i: number): NewApiRequestRow => ({
    key_id: keyId,
    company_id: companyId,
    method: 'GET',
    endpoint: '/api-v1/company',
    status_code: 200,
    response_time_ms: i,
    // Each pair out of order of time: the numbers follow the order written.
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2) * 2 + ((i + 1) % 2))).toISOString(),
  })
  /** Each id's numbers in the order its records were written. */
  async function numbers(ids: string[]) {
    const rows = await store.db.selectFrom('api_requests').select(['key_id', 'seq']).where('key_id', 'in', ids).orderBy('id').execute()
    const out: Record<string, number[]> = {}
    for (const r of rows) (out[r.key_id] ??= []).push(Number(r.seq))
    return out
  }
  const count = async (keyId: string) =>
    Number((await store.db.selectFrom('api_keys').select('usage_count').where('id', '=', keyId).executeTakeFirstOrThrow()).usage_count)

  it("numbers each key's records 1, 2, ... as written, the last its usage_count; a login's after its highest; the migration the same", async () => {
    const t = await seedTenant(store)
    const [a, b] = [await addKey(store, t.companyId), await addKey(store, t.companyId)]
    const login = `user:${t.companyId}-someone`
    const ids = [a, b, login]
    await store.hot.insertApiRequests(Array.from({ length: 7 }, (_, i) => record(ids[i % 3], t.companyId, i)))
    await store.hot.insertApiRequests(Array.from({ length: 8 }, (_, i) => record(ids[(i * 2) % 3], t.companyId, 7 + i)))
    const want = { [a]: [1, 2, 3, 4, 5, 6], [b]: [1, 2, 3, 4], [login]: [1, 2, 3, 4, 5] }
    expect(await numbers(ids)).toEqual(want)
    expect([await count(a), await count(b)]).toEqual([6, 4])
    // As a database of an older release: records without numbers, numbered by the migration.
    await store.db.updateTable('api_requests').set({ seq: 0 }).execute()
    await backfill(store.db)
    expect(await numbers(ids)).toEqual(want)
    // A key whose usage_count counted requests before its records were kept: its last is the count.
    await store.db.updateTable('api_keys').set({ usage_count: 10 }).where('id', '=', a).execute()
    await backfill(store.db)
    expect((await numbers([a]))[a]).toEqual([5, 6, 7, 8, 9, 10])
    await store.hot.insertApiRequests([record(a, t.companyId, 99)])
    expect((await numbers([a]))[a].at(-1)).toBe(11)
  })

  it("a usage read's newest records are the last written, newest first, and PostgreSQL reads only those", async () => {
    const t = await seedTenant(store)
    const keyId = await addKey(store, t.companyId)
    // Enough records that, with no statistics, PostgreSQL's estimate of the key's records is under `recent`.
    const total = 3000
    for (let from = 0; from < total; from += 500)
      await store.hot.insertApiRequests(Array.from({ length: 500 }, (_, i) => record(keyId, t.companyId, from + i)))
    const key = (await store.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow()) as ApiKeyRow
    for (const recent of [1, 20, 100]) {
      const stats = await usageStats(store, key, recent, new Date(Date.UTC(2026, 5, 1)))
      const want = Array.from({ length: recent }, (_, i) => total - 1 - i).sort((x, y) => {
        const [tx, ty] = [record(keyId, '', x).created_at, record(keyId, '', y).created_at]
        return tx !== ty ? (tx < ty ? 1 : -1) : y - x
      })
      expect(stats.recent_requests.map((r) => r.response_time_ms)).toEqual(want)
      expect(stats.total_requests).toBe(total)
    }
    if (kind !== 'postgres') return
    const o = { since: '2026-05-31T00:00:00.000Z', firstPeriod: '2026-05-31T00:1', firstWhole: '2026-05-31T00:10:00.000Z', recent: 20 }
    const plan = await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (ANALYZE, FORMAT JSON) ${keyUsagePartsSql(keyId, o)}`.execute(store.db)
    const read: Array<{ name: string; rows: number }> = []
    const walk = (node: Record<string, unknown>) => {
      const name = (node['Relation Name'] ?? node['Index Name']) as string | undefined
      if (name?.startsWith('api_requests')) read.push({ name, rows: Number(node['Actual Rows']) * Number(node['Actual Loops']) })
      for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child)
    }
    walk((plan.rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0].Plan)
    expect(read.length).toBeGreaterThan(0)
    for (const r of read) expect(r.rows, `${r.name} in ${JSON.stringify(read)}`).toBeLessThanOrEqual(20)
  })
})
