/**
 * Bulk inserts of transactions on PostgreSQL: COPY into a temporary staging table, then one
 * `INSERT … SELECT … ON CONFLICT (account_key, import_ref) DO NOTHING RETURNING id` from it.
 *
 * COPY carries the rows in one stream with no parameters to bind or statement to parse; the INSERT
 * from the staging table keeps what a multi-row INSERT guaranteed: a row whose import_ref its account
 * holds already (written by this process or any other) is left out, the first of two alike in one
 * call is kept (the stage's `ord`), and the call is one transaction, all or nothing.
 *
 * The stage is a temporary table of the connection, emptied at every commit (ON COMMIT DELETE ROWS),
 * created the first time a pooled connection needs it.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { TX_COLUMNS } from './schema.js'
import type { NewTransactionRow, TransactionCodec } from './transaction-codec.js'

/** Calls of at least this many rows go by COPY; fewer by a multi-row INSERT (a COPY costs three round trips more). */
export const COPY_MIN_ROWS = 100

const STAGE = 'finctl_tx_stage'
const COLUMNS = TX_COLUMNS.join(', ')

/** A value in COPY's text format: \N for null; backslash, newline, carriage return and tab escaped. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '\\N'
  if (typeof v === 'number') return String(v)
  const s = String(v)
  return /[\\\n\r\t]/.test(s) ? s.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : s
}

/** The rows as COPY text, in pieces of about 64 KiB. */
function* copyText(codec: TransactionCodec, rows: NewTransactionRow[]): Generator<string> {
  let piece = ''
  const values: unknown[] = new Array(TX_COLUMNS.length)
  for (let i = 0; i < rows.length; i++) {
    codec.encodeValues(rows[i], values as Parameters<TransactionCodec['encodeValues']>[1])
    let line = String(i)
    for (const v of values) line += `\t${field(v)}`
    piece += `${line}\n`
    if (piece.length >= 65_536) {
      yield piece
      piece = ''
    }
  }
  if (piece) yield piece
}

/** Insert `rows` in one transaction on a connection of `pool`; the ids of the rows inserted. */
export async function copyTransactions(pool: pg.Pool, codec: TransactionCodec, rows: NewTransactionRow[]): Promise<Set<string>> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query('BEGIN')
    try {
      // The columns the COPY fills (not seq, which the INSERT leaves to the table's identity).
      await client.query(
        `CREATE TEMP TABLE IF NOT EXISTS ${STAGE} ON COMMIT DELETE ROWS AS SELECT 0 AS ord, ${COLUMNS} FROM transactions WITH NO DATA`,
      )
      await pipeline(Readable.from(copyText(codec, rows)), client.query(copyFrom(`COPY ${STAGE} (ord, ${COLUMNS}) FROM STDIN`)))
      const r = await client.query<{ id: string }>(
        `INSERT INTO transactions (${COLUMNS}) SELECT ${COLUMNS} FROM ${STAGE} ORDER BY ord
         ON CONFLICT (account_key, import_ref) DO NOTHING RETURNING id`,
      )
      await client.query('COMMIT')
      return new Set(r.rows.map((x) => x.id))
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e
      })
      throw err
    }
  } finally {
    client.release(broken)
  }
}
