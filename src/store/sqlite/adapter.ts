/** What the store's shared modules ask of SQLite (DialectAdapter in ../dialect-adapter.ts). */
import { type Kysely, sql } from 'kysely'
import type { DialectAdapter, IndexDefinition } from '../dialect-adapter.js'
import type { Db } from '../schema.js'
import { uuidBytes } from '../transaction-codec.js'
import { sqliteReportTotals } from './report-triggers.js'
import { sqliteSql } from './sql.js'

/** Fewest rows for the indexes to be dropped and built again (the rest of the table is sorted once per index). */
const REBUILD_MIN_ROWS = 10_000

/**
 * Most of a large delete's time is taking each row out of the table's dozen indexes at random. When
 * the rows are most of the table, the indexes are dropped, the rows deleted and the indexes created
 * again from what remains: the indexes that are there (a bulk load may have set some aside:
 * bulk-load.ts) are the ones that come back.
 */
async function indexesToRebuild(trx: Kysely<Db>, rows: number): Promise<IndexDefinition[]> {
  if (rows < REBUILD_MIN_ROWS) return []
  const total = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM transactions`.execute(trx)).rows[0].n)
  // Only when the rows that stay are fewer than those that go: building the indexes sorts them.
  if (total - rows > rows) return []
  return (
    await sql<IndexDefinition>`SELECT name, sql FROM sqlite_master
          WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL`.execute(trx)
  ).rows
}

export const sqliteAdapter: DialectAdapter = {
  sql: sqliteSql,
  // Ids are kept in 16 bytes.
  storedId: uuidBytes,
  // One writer at a time: a company's events commit in the order of their seq anyway.
  lockEventOrder: async () => {},
  indexesToRebuild,
  reportTotals: sqliteReportTotals,
}
