/**
 * A review import's staged rows (import_pending_rows, migration 0034) written by line. A line staged
 * already keeps its first row: a batch of rows sent again (a retry) changes nothing.
 */
import type { Kysely } from 'kysely'
import type { Db } from './schema.js'

export interface PendingRowValues {
  line: number
  body: string
}

/** The review's own row (import_reviews), made by its first stage: when it expires, the shape its rows are kept in. */
export interface PendingReview {
  batch_id: string
  company_id: string
  expires_at: string
  checked_shape: number
}

/** The review's row and its rows in one write (kysely's way: PostgreSQL). */
export async function stagePendingRows(trx: Kysely<Db>, review: PendingReview, rows: readonly PendingRowValues[]): Promise<void> {
  await trx
    .insertInto('import_reviews')
    .values(review)
    .onConflict((oc) => oc.column('batch_id').doNothing())
    .execute()
  await insertPendingRows(trx, review.batch_id, rows)
}

export const INSERT_REVIEW =
  'INSERT INTO import_reviews (batch_id, company_id, expires_at, checked_shape) VALUES (?, ?, ?, ?) ON CONFLICT (batch_id) DO NOTHING'

/** Rows a multi-row insert carries (three values a row, within both dialects' bound-parameter limits). */
const CHUNK = 500

export async function insertPendingRows(trx: Kysely<Db>, batchId: string, rows: readonly PendingRowValues[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto('import_pending_rows')
      .values(rows.slice(i, i + CHUNK).map((r) => ({ batch_id: batchId, line: r.line, body: r.body })))
      .onConflict((oc) => oc.columns(['batch_id', 'line']).doNothing())
      .execute()
}

export const INSERT_PENDING_ROW = 'INSERT INTO import_pending_rows (batch_id, line, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'

/** The same on SQLite's raw connection, one prepared statement a row, inside the open transaction. */
export function insertPendingRowsSync(
  insert: { run(batchId: string, line: number, body: string): unknown },
  batchId: string,
  rows: readonly PendingRowValues[],
): void {
  for (const r of rows) insert.run(batchId, r.line, r.body)
}
