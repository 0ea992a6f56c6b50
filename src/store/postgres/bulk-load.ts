/**
 * PostgreSQL's statistics of `transactions` after a bulk load.
 *
 * PostgreSQL plans each query from statistics (pg_class.reltuples, pg_statistic) that only ANALYZE
 * refreshes. Autovacuum runs it once a table has changed by a tenth, but only at its next round (a
 * minute apart by default), and never where it is turned off. Meanwhile a table a load just filled
 * is planned as the empty table it was: a file imported a second time, right after the first, looked
 * up its refs, 500 at a time, by scanning the account's whole date index instead of the unique ref
 * index, at twice the first import's time (docs/performance.md, "PostgreSQL's statistics after a load").
 *
 * So the end of a bulk load (its last batch, `Prefer: bulk-load-end`) runs ANALYZE when the table has
 * changed by autovacuum's own measure since it last ran: 50 rows plus a tenth of the rows it counted
 * then. The changes are those this process wrote or, if more, those PostgreSQL counted from every
 * process (pg_stat_user_tables, which lags by about a second). ANALYZE reads a sample (under a second
 * at a million rows, same section) and blocks neither readers nor writers; it waits at most two
 * seconds for another ANALYZE or VACUUM of the table, which is then doing the work, and any failure
 * leaves the statistics as they were without failing the batch.
 */
import { type Kysely, sql } from 'kysely'
import type { Db } from '../schema.js'
import type { BulkLoad, InsertedRows, InsertOptions } from '../store.js'
import type { NewTransactionRow } from '../transaction-codec.js'

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, as PostgreSQL ships them. */
const THRESHOLD_ROWS = 50
const THRESHOLD_SHARE = 0.1

export class TransactionStatistics {
  /** Rows this process has written into `transactions` since its last ANALYZE. */
  private written = 0
  private running: Promise<void> | undefined

  constructor(private readonly db: Kysely<Db>) {}

  wrote(rows: number): void {
    this.written += rows
  }

  /** ANALYZE `transactions` if it has changed enough since the last time (see above). One at a time. */
  refresh(): Promise<void> {
    this.running ??= this.analyzeIfStale().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async analyzeIfStale(): Promise<void> {
    try {
      const { rows } = await sql<{ reltuples: number; mods: number | string }>`
        SELECT c.reltuples, COALESCE(s.n_mod_since_analyze, 0) AS mods
        FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE c.oid = 'transactions'::regclass`.execute(this.db)
      const changed = Math.max(this.written, Number(rows[0].mods))
      if (changed < THRESHOLD_ROWS + THRESHOLD_SHARE * Math.max(0, rows[0].reltuples)) return
      const written = this.written
      await this.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL lock_timeout = '2s'`.execute(trx)
        await sql`ANALYZE transactions`.execute(trx)
      })
      this.written -= written
    } catch {
      // The statistics stay as they were (a lock not had in time, a role that may not ANALYZE, a
      // connection lost); autovacuum still comes round.
    }
  }
}

/**
 * A bulk load on PostgreSQL: nothing is set aside, its batches are ordinary inserts (by COPY when
 * large, row-inserts.ts), and its end refreshes the statistics (above).
 */
export function postgresBulkLoad(
  insert: (rows: NewTransactionRow[], o?: InsertOptions) => Promise<InsertedRows>,
  statistics: TransactionStatistics,
): BulkLoad {
  return { insert: (rows, o) => insert(rows, o), end: () => statistics.refresh() }
}
