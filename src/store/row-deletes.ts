/**
 * Deleting many transactions at once (an import batch's revert), by runs of consecutive seqs: one
 * range delete walks the table in order, where lists of seqs took about twice as long.
 *
 * Where the dialect finds it quicker (SQLite, when the rows are most of the table: sqlite/adapter.ts),
 * the table's indexes are dropped, the rows deleted and the indexes created again from what remains,
 * all inside the caller's write transaction: a kill leaves the indexes and rows as they were.
 */
import { type Kysely, sql } from 'kysely'
import type { DialectAdapter } from './dialect-adapter.js'
import type { Db } from './schema.js'

export async function deleteSeqRuns(
  trx: Kysely<Db>,
  adapter: DialectAdapter,
  runs: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  const rows = runs.reduce((n, [from, to]) => n + to - from + 1, 0)
  const rebuild = await adapter.indexesToRebuild(trx, rows)
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
