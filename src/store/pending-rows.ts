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
