/**
 * Bulk inserts of transactions on PostgreSQL by COPY, exactly-once by the unique
 * (account_key, import_ref) index.
 *
 * First, COPY straight into `transactions`: a batch whose refs no row holds yet (every batch of a
 * first import) goes in with one statement and no copy of its rows. When the index refuses a row
 * (its ref is there already, written by this process or any other, or twice in the batch), that
 * transaction is rolled back whole and the batch goes again the careful way: COPY into a temporary
 * staging table, then one `INSERT … SELECT … ON CONFLICT (account_key, import_ref) DO NOTHING
 * RETURNING id` from it, which leaves out the rows whose ref is taken and keeps the first of two
 * alike in one call (the stage's `ord`). Either way the call is one transaction, all or nothing. A
 * deadlock's victim (the same refs met crosswise by a group commit) goes again the careful way; any
 * other error (a taken id, a missing account) fails it as before.
 *
 * The direct COPY saves PostgreSQL the stage's write and read of every row (docs/performance.md,
 * "Inserting a row"). A refused COPY stops at the
 * row refused, so a file imported again costs little more than before: a row per batch.
 *
 * The stage is a temporary table of the connection, emptied at every commit (ON COMMIT DELETE ROWS),
 * created the first time a pooled connection needs it.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { TX_COLUMNS, type NewAuditEntryRow, type NewEventRow } from '../schema.js'
import { insertEventsPg } from './events.js'
import { entryHash, GENESIS } from '../audit-chain.js'
import { creationEntries } from '../creations.js'
import { inPooledTransaction } from './pooled-transaction.js'
import type { NewTransactionRow, TransactionCodec } from '../transaction-codec.js'

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

/** The rows as COPY text, in pieces of about 64 KiB; with `ord`, each row starts with its position. */
function* copyText(codec: TransactionCodec, rows: NewTransactionRow[], ord: boolean): Generator<string> {
  let piece = ''
  const values: unknown[] = new Array(TX_COLUMNS.length)
  for (let i = 0; i < rows.length; i++) {
    codec.encodeValues(rows[i], values as Parameters<TransactionCodec['encodeValues']>[1])
    let line = ord ? String(i) : field(values[0])
    for (let c = ord ? 0 : 1; c < values.length; c++) line += `\t${field(values[c])}`
    piece += `${line}\n`
    if (piece.length >= 65_536) {
      yield piece
      piece = ''
    }
  }
  if (piece) yield piece
}

/** The index that makes an import exactly-once: a COPY it refuses goes again by the stage. */
const REF_INDEX = 'transactions_import_ref'

/** Whether `err` is the unique ref index refusing a row. */
function refTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string }
  return e.code === '23505' && e.constraint === REF_INDEX
}

/**
 * Whether PostgreSQL chose this transaction as a deadlock's victim: it was rolled back whole, so it
 * may go again. A COPY takes its refs in file order; a group commit of small calls in the calls'
 * order, so the same refs at the same moment can meet crosswise.
 */
function deadlocked(err: unknown): boolean {
  return (err as { code?: string }).code === '40P01'
}

/** Tries of the careful way before a deadlock is answered as an error. */
const DEADLOCK_TRIES = 3

/**
 * Chain `entries` on a client in its open transaction (appendAudit's rule): the head locked, then each
 * entry inserted and the head moved by one statement, so a batch's creation costs two round trips
 * while the head is held (concurrent batches of an import queue on it until each COMMIT).
 */
async function chainOnClient(client: pg.PoolClient, entries: readonly NewAuditEntryRow[]): Promise<void> {
  for (const companyId of new Set(entries.map((e) => e.company_id))) {
    const head = async () =>
      (await client.query<{ hash: string }>('SELECT hash FROM audit_chain_heads WHERE company_id = $1 FOR UPDATE', [companyId])).rows[0]
    let h = await head()
    if (!h) {
      await client.query(
        `INSERT INTO audit_chain_heads (company_id, last_id, hash) VALUES ($1, 0, '${GENESIS}') ON CONFLICT (company_id) DO NOTHING`,
        [companyId],
      )
      h = (await head())!
    }
    let prev = h.hash
    for (const e of entries) {
      if (e.company_id !== companyId) continue
      const hash = entryHash(prev, e)
      await client.query(
        `WITH entry AS (
           INSERT INTO audit_entries (company_id, transaction_id, actor, action, changes, created_at, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
         )
         UPDATE audit_chain_heads SET last_id = GREATEST(last_id, (SELECT id FROM entry)), hash = $8 WHERE company_id = $1`,
        [e.company_id, e.transaction_id, e.actor, e.action, e.changes, e.created_at, prev, hash],
      )
      prev = hash
    }
  }
}

/** Insert `rows` in one transaction on a connection of `pool`; the ids of the rows inserted. */
export async function copyTransactions(
  pool: pg.Pool,
  codec: TransactionCodec,
  rows: NewTransactionRow[],
  /** The event of the rows that went in, written before the COMMIT (docs/events.md). */
  eventOf?: (ids: Set<string>) => NewEventRow | undefined,
  /** The import batch the rows are part of (InsertOptions.batch). */
  batch?: string,
): Promise<Set<string>> {
  const withEvent = async (client: pg.PoolClient, ids: Set<string>): Promise<Set<string>> => {
    // The creation's audit entry, chained last: the head's lock is held from here to the COMMIT only.
    const entries = creationEntries(
      rows,
      (i) => ids.has(rows[i].id),
      (k) => codec.companyIdOf(k),
      batch,
    )
    if (entries.length) await chainOnClient(client, entries)
    const event = eventOf?.(ids)
    if (event) await insertEventsPg(client, [event])
    return ids
  }
  const inTransaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    inPooledTransaction(pool, async (client) => {
      await client.query('BEGIN')
      const out = await work(client)
      await client.query('COMMIT')
      return out
    })
  try {
    return await inTransaction(async (client) => {
      await pipeline(Readable.from(copyText(codec, rows, false)), client.query(copyFrom(`COPY transactions (${COLUMNS}) FROM STDIN`)))
      return withEvent(client, new Set(rows.map((r) => r.id)))
    })
  } catch (err) {
    if (!refTaken(err) && !deadlocked(err)) throw err
  }
  for (let tries = 1; ; tries++) {
    try {
      return await staged()
    } catch (err) {
      if (!deadlocked(err) || tries >= DEADLOCK_TRIES) throw err
    }
  }

  function staged(): Promise<Set<string>> {
    return inTransaction(async (client) => {
      // The columns the COPY fills (not seq, which the INSERT leaves to the table's identity).
      await client.query(
        `CREATE TEMP TABLE IF NOT EXISTS ${STAGE} ON COMMIT DELETE ROWS AS SELECT 0 AS ord, ${COLUMNS} FROM transactions WITH NO DATA`,
      )
      await pipeline(Readable.from(copyText(codec, rows, true)), client.query(copyFrom(`COPY ${STAGE} (ord, ${COLUMNS}) FROM STDIN`)))
      const r = await client.query<{ id: string }>(
        `INSERT INTO transactions (${COLUMNS}) SELECT ${COLUMNS} FROM ${STAGE} ORDER BY ord
         ON CONFLICT (account_key, import_ref) DO NOTHING RETURNING id`,
      )
      return withEvent(client, new Set(r.rows.map((x) => x.id)))
    })
  }
}
