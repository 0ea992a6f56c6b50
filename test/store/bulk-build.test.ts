/**
 * How a bulk load builds the indexes it set aside (sqlite/bulk-load.ts): with a small page cache,
 * which SQLite's sorter sizes its runs from (a bigger one was slower and took more memory), and the
 * connection's own cache given back afterwards.
 */
import Database from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { freshDatabase, seedTenant, txRow, type TestDatabase } from './fixtures.js'

const originalExec = Database.prototype.exec
afterEach(() => {
  Database.prototype.exec = originalExec
})

describe('a bulk load on SQLite builds its indexes again', () => {
  let d: TestDatabase | undefined
  afterEach(async () => {
    await d?.remove()
    d = undefined
  })

  it('with a 2 MiB page cache, then gives the connection its cache back', async () => {
    d = await freshDatabase('sqlite')
    const s = await d.open()
    try {
      const t = await seedTenant(s)
      const cacheOf = async () => Number(Object.values((await sql`PRAGMA cache_size`.execute(s.db)).rows[0] as object)[0])
      const before = await cacheOf()
      const built: Array<{ sql: string; cache: number; threads: number }> = []
      Database.prototype.exec = function (this: Database.Database, source: string) {
        if (/^CREATE (UNIQUE )?INDEX IF NOT EXISTS/i.test(source))
          built.push({
            sql: source,
            cache: this.pragma('cache_size', { simple: true }) as number,
            threads: this.pragma('threads', { simple: true }) as number,
          })
        return originalExec.call(this, source)
      } as typeof originalExec
      const rows = Array.from({ length: 50 }, (_, i) => txRow(t, { import_ref: `b-${i}`, amount: i + 1, base_amount: i + 1 }))
      const load = s.hot.bulkLoad({ rows: 1_000_000 })
      await load.insert(rows)
      await load.end()
      // Every index set aside (the dates, the reports, the amount, the unique refs ...).
      expect(built.length).toBeGreaterThanOrEqual(8)
      for (const b of built) expect({ cache: b.cache, threads: b.threads }, b.sql).toEqual({ cache: -2048, threads: 2 })
      expect(await cacheOf()).toBe(before)
      expect(before).not.toBe(-2048)
    } finally {
      await s.close()
    }
  })
})
