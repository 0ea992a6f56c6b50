/**
 * Deleting many transactions at once (an import batch's revert), by runs of consecutive seqs: one
 * range delete walks the table in order, where lists of seqs took about twice as long.
 *
 * On SQLite, most of a large delete's time is taking each row out of the table's dozen indexes at
 * random. When the rows are most of the table, the indexes are dropped, the rows deleted and the
 * indexes created again from what remains, all inside the caller's write transaction: a kill leaves
 * the indexes and rows as they were, and the indexes that are there (a bulk load may have set some
 * aside: sqlite/bulk-load.ts) are the ones that come back.
 */
import { type Kysely, sql } from 'kysely'
import type { Db } from './schema.js'
import type { Dialect } from './store.js'

/** Fewest rows for the indexes to be dropped and built again (the rest of the table is sorted once per index). */
const REBUILD_MIN_ROWS = 10_000

export async function deleteSeqRuns(trx: Kysely<Db>, dialect: Dialect, runs: ReadonlyArray<readonly [number, number]>): Promise<void> {
  const rows = runs.reduce((n, [from, to]) => n + to - from + 1, 0)
  let rebuild: Array<{ name: string; sql: string }> = []
  if (dialect === 'sqlite' && rows >= REBUILD_MIN_ROWS) {
    const total = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM transactions`.execute(trx)).rows[0].n)
    // Only when the rows that stay are fewer than those that go: building the indexes sorts them.
    if (total - rows <= rows)
      rebuild = (
        await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
          WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL`.execute(trx)
      ).rows
  }
  for (const i of rebuild) await sql`DROP INDEX ${sql.id(i.name)}`.execute(trx)
  for (let i = 0; i < runs.length; i += 200)
    await trx
      .deleteFrom('transactions')
      .where((eb) => eb.or(runs.slice(i, i + 200).map(([from, to]) => (from === to ? eb('seq', '=', from) : eb.between('seq', from, to)))))
      .execute()
  for (const i of rebuild) await sql.raw(i.sql).execute(trx)
}

/** Sorted runs [first, last] of consecutive integers: every number in a run is one of `seqs`. */
export function seqRuns(seqs: readonly number[]): Array<[number, number]> {
  const sorted = [...seqs].sort((a, b) => a - b)
  const runs: Array<[number, number]> = []
  for (const n of sorted) {
    const last = runs[runs.length - 1]
    if (last && n === last[1] + 1) last[1] = n
    else if (!last || n !== last[1]) runs.push([n, n])
  }
  return runs
}
