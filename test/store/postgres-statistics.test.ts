/**
 * PostgreSQL's statistics after a bulk load (src/store/postgres/bulk-load.ts): the load's end runs
 * ANALYZE once the table has changed by autovacuum's measure, so that the next queries (a file
 * imported again looks its refs up) are planned for the table as it is, not as it was.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, STORES, txRow, type TestDatabase, type Tenant } from './fixtures.js'

describe.skipIf(!STORES.includes('postgres'))('statistics of transactions after a bulk load (PostgreSQL)', () => {
  let database: TestDatabase
  let store: Store
  let t: Tenant

  beforeAll(async () => {
    database = await freshDatabase('postgres')
    store = await database.open()
    t = await seedTenant(store)
    // Only the load's end may analyze this table here, not an autovacuum worker passing by meanwhile.
    await sql`ALTER TABLE transactions SET (autovacuum_enabled = false)`.execute(store.db)
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  const stats = async () =>
    (
      await sql<{ reltuples: number; analyzed: Date | null }>`
        SELECT c.reltuples, s.last_analyze AS analyzed
        FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE c.oid = 'transactions'::regclass`.execute(store.db)
    ).rows[0]
  let n = 0
  /** A bulk load of `rows` rows, in batches of 1,000; not ended. */
  const load = async (rows: number) => {
    const bulk = store.hot.bulkLoad({ rows })
    for (let done = 0; done < rows; done += 1000) {
      const batch = Array.from({ length: Math.min(1000, rows - done) }, () => txRow(t, { import_ref: `stat-${n++}` }))
      await bulk.insert(batch)
    }
    return bulk
  }
  /**
   * Until PostgreSQL's own count of the rows inserted reaches `rows`: each connection reports its
   * counts about a second late, and counts reported after an ANALYZE count as changes since it (the
   * next small change would then analyze again, as it should for rows that came in meanwhile).
   */
  const countedByPostgres = async (rows: number) => {
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const { n } = (
        await sql<{ n: number | string }>`SELECT n_tup_ins AS n FROM pg_stat_user_tables WHERE relid = 'transactions'::regclass`.execute(
          store.db,
        )
      ).rows[0]
      if (Number(n) >= rows) return
      if (Date.now() > deadline) throw new Error(`PostgreSQL counted ${n} of ${rows} rows inserted`)
    }
  }
  /** How many of the account's rows the planner expects (a table never analyzed: a guess of a few hundred). */
  const accountEstimate = async () => {
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT 1 FROM transactions WHERE account_key = ${t.accountKey}`.execute(
      store.db,
    )
    return Number(/rows=(\d+)/.exec(plan.rows[0]['QUERY PLAN'])?.[1])
  }

  it("a load's end analyzes the table it filled: the planner then knows the account's rows", async () => {
    expect((await stats()).analyzed).toBeNull()
    const bulk = await load(20_000)
    expect(await accountEstimate()).toBeLessThan(2_000)
    await countedByPostgres(20_000)
    await bulk.end()
    const after = await stats()
    expect(after.reltuples).toBe(20_000)
    expect(after.analyzed).not.toBeNull()
    expect(await accountEstimate()).toBe(20_000)
  })

  it('a small change since does not analyze again; a tenth more does', async () => {
    const before = await stats()
    await (await load(1_000)).end()
    expect(await stats()).toEqual(before)
    await (await load(1_100)).end()
    const after = await stats()
    expect(after.reltuples).toBe(22_100)
    expect(after.analyzed!.getTime()).toBeGreaterThan(before.analyzed!.getTime())
  })
})
