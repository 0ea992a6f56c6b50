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

/**
 * Rows one SQLite statement of INSERT_PENDING_ROWS carries: a statement a row cost twice the
 * processor time of one a hundred rows (docs/performance.md, "Review before it lands").
 */
export const PENDING_ROWS_PER_STATEMENT = 100

/** PENDING_ROWS_PER_STATEMENT rows in one statement; a line already there keeps its row, as above. */
export const INSERT_PENDING_ROWS = `INSERT INTO import_pending_rows (batch_id, line, body) VALUES ${Array(PENDING_ROWS_PER_STATEMENT)
  .fill('(?, ?, ?)')
  .join(', ')} ON CONFLICT DO NOTHING`

interface Run {
  run(...params: unknown[]): unknown
}

/** SQLite's prepared statements of a stage: the review's row, a row, PENDING_ROWS_PER_STATEMENT rows. */
export interface PendingStatements {
  review: Run
  one: Run
  many: Run
}

export function pendingStatements(prepare: (sql: string) => Run): PendingStatements {
  return { review: prepare(INSERT_REVIEW), one: prepare(INSERT_PENDING_ROW), many: prepare(INSERT_PENDING_ROWS) }
}

/**
 * The same on SQLite's raw connection, inside the open transaction: whole groups through `many`
 * (INSERT_PENDING_ROWS), the rest a row at a time through `one` (INSERT_PENDING_ROW), in line order.
 */
export function insertPendingRowsSync(statements: PendingStatements, batchId: string, rows: readonly PendingRowValues[]): void {
  const n = PENDING_ROWS_PER_STATEMENT
  const whole = rows.length - (rows.length % n)
  const params: unknown[] = new Array(3 * n)
  for (let i = 0; i < whole; i += n) {
    for (let j = 0; j < n; j++) {
      const r = rows[i + j]
      params[3 * j] = batchId
      params[3 * j + 1] = r.line
      params[3 * j + 2] = r.body
    }
    statements.many.run(params)
  }
  for (let i = whole; i < rows.length; i++) statements.one.run(batchId, rows[i].line, rows[i].body)
}
