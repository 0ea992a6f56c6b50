/**
 * Inserting transactions on SQLite, the hot path of batches and imports.
 *
 * What a row costs here is mostly binding: better-sqlite3 converts and copies each bound value, and a
 * transaction has 27 columns. In a batch most columns hold one value for every
 * row (the company, the account, the currency, the status, who created it and when, the nulls), so
 * rows go in chunks of up to CHUNK rows, one statement each, that bind such a value once:
 *
 *   INSERT INTO transactions (c1, …, c27) SELECT column1, ?, column2, … FROM (VALUES (?, ?), (?, ?), …) WHERE true
 *   ON CONFLICT (account_key, import_ref) DO NOTHING
 *
 * The `?` of the SELECT list take the shared values, the VALUES rows the values that differ (`WHERE
 * true` is SQLite's rule for an upsert whose source is a SELECT). Chunks of 100 with the shared values
 * bound once took little more than half the time of one row a statement; chunks binding every value
 * were no faster than single rows (docs/performance.md, "Inserting a row").
 *
 * Rows whose import_ref the account holds already are left out, as one row a statement would leave
 * them out. Which rows went in: all of a chunk when SQLite counts as many changes as rows (the usual
 * case); else those whose id is in the table now (ids are new UUIDs, so a row found by its id was
 * inserted by this statement). Fewer rows than MIN_CHUNK go one a statement.
 *
 * A chunk keeps a statement journal (every page it changes that was there before, copied to a temporary
 * file: about 100 pages a 1,000 rows), because a multi-row INSERT may stop half-way, on the
 * bank_accounts foreign key or a NOT NULL. Without both (foreign keys off, INSERT OR FAIL) a load's
 * inserts were a little faster (docs/performance.md, "Inserting a row"); not taken: foreign keys switch only outside a
 * transaction, for every write of the connection, and PRAGMA defer_foreign_keys keeps the journal
 * (only a DEFERRABLE INITIALLY DEFERRED constraint drops it; docs/import-speed.md).
 *
 * During a bulk load that set the unique (account_key, import_ref) index aside (bulk-load.ts),
 * `insertBulk` finds the refs already there in the load's RefTables instead, inserts the others
 * without ON CONFLICT and adds them to the tables; it names the transaction holding each ref it left
 * out, which a caller would otherwise have to look up (without that index, by reading the table).
 */
import type BetterSqlite3 from 'better-sqlite3'
import { TX_COLUMNS, type StoredId } from '../schema.js'
import { firstSlot, slotsFor } from '../../kernel/hash-slots.js'
import { MAX_SEQ, type RefTable, refHash } from './ref-table.js'
import { InsertedRows } from '../store.js'
import { type NewTransactionRow, refKey, type TransactionCodec } from '../transaction-codec.js'

/** Rows a statement at most (27 columns each stays far under SQLite's 32,766 parameters). */
const CHUNK = 100
/** Fewer rows than this go one a statement: a chunk's statement is prepared once per shape and size. */
const MIN_CHUNK = 16
/** Chunk statements kept (shapes x sizes); the cache starts again when full. */
const MAX_STATEMENTS = 64

const CONFLICT = 'ON CONFLICT (account_key, import_ref) DO NOTHING'
const WIDTH = TX_COLUMNS.length

type Value = StoredId | string | number | null

export class TransactionInserter {
  /** Prepared when first used: an ON CONFLICT (account_key, import_ref) cannot be prepared while a bulk load has that index aside. */
  private single: BetterSqlite3.Statement | undefined
  private readonly chunks = new Map<string, BetterSqlite3.Statement>()
  private readonly plainChunks = new Map<string, BetterSqlite3.Statement>()
  private readonly refAt: BetterSqlite3.Statement
  private readonly idAt: BetterSqlite3.Statement
  private readonly seqOf: BetterSqlite3.Statement
  private readonly present = new Map<number, BetterSqlite3.Statement>()
  /** The values of a chunk's rows, row after row, reused (the statement copies them when it binds). */
  private readonly values: Value[] = new Array(WIDTH * CHUNK)
  private readonly row: Value[] = new Array(WIDTH)

  /** Whether row `seq` holds `ref` (RefTable.find's check: one function for every row). */
  private readonly refIsAt = (seq: number, ref: string): boolean => this.refAt.get(seq) === ref

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly codec: TransactionCodec,
  ) {
    this.refAt = raw.prepare('SELECT import_ref FROM transactions WHERE seq = ?').pluck()
    this.idAt = raw.prepare('SELECT id FROM transactions WHERE seq = ?').pluck()
    this.seqOf = raw.prepare('SELECT seq FROM transactions WHERE id = ?').pluck()
  }

  /**
   * A bulk load's insert (inside the caller's transaction; actors prepared): rows whose ref `refs`
   * finds are left out and named in `existing`; a second row with a ref of the same call is left
   * out as ON CONFLICT would. Every row with a ref must be of an account `refs` holds. Which rows went in, by place.
   */
  insertBulk(rows: NewTransactionRow[], refs: Map<number, RefTable>, existing: Map<string, string> | undefined): InsertedRows {
    const went = new Uint8Array(rows.length)
    const kept: NewTransactionRow[] = []
    /** Each kept row's place in `rows`. */
    const places: number[] = []
    const hashes: number[] = []
    // The refs of this call kept so far: each kept row's place in `kept` (plus one) in a slot found
    // by its ref's hash, the hash the ref tables take. A Map keyed by the refs themselves hashed each
    // ref's text again, a cost a load's profile showed (docs/performance.md, "Inserting a row").
    const fresh = new Int32Array(slotsFor(rows.length))
    for (let place = 0; place < rows.length; place++) {
      const row = rows[place]
      const ref = row.import_ref
      if (!ref) {
        kept.push(row)
        places.push(place)
        hashes.push(0)
        continue
      }
      const hash = refHash(ref)
      let slot = firstSlot(hash, fresh.length)
      let earlier: NewTransactionRow | undefined
      for (; fresh[slot] !== 0; slot = slot + 1 === fresh.length ? 0 : slot + 1) {
        const k = fresh[slot] - 1
        if (hashes[k] === hash && kept[k].import_ref === ref && kept[k].account_key === row.account_key) {
          earlier = kept[k]
          break
        }
      }
      if (earlier) {
        existing?.set(refKey(row.account_key, ref), earlier.id)
        continue
      }
      const table = refs.get(row.account_key)
      if (!table) throw new Error(`bulk insert: no ref table for account ${row.account_key}`)
      const seq = table.find(hash, ref, this.refIsAt)
      if (seq !== 0) {
        existing?.set(refKey(row.account_key, ref), this.codec.idText(this.idAt.get(seq) as StoredId))
        continue
      }
      fresh[slot] = kept.length + 1
      kept.push(row)
      places.push(place)
      hashes.push(hash)
    }
    for (let i = 0; i < kept.length; i += CHUNK) {
      const chunk = kept.slice(i, i + CHUNK)
      const first = this.insertPlain(chunk)
      for (let r = 0; r < chunk.length; r++) {
        went[places[i + r]] = 1
        const ref = chunk[r].import_ref
        if (!ref) continue
        const seq = first > 0 ? first + r : (this.seqOf.get(this.codec.idParam(chunk[r].id)) as number)
        if (seq > MAX_SEQ) throw new Error(`bulk insert: seq ${seq} past what a ref table holds`)
        refs.get(chunk[r].account_key)!.add(hashes[i + r], seq)
      }
    }
    return InsertedRows.byPlace(rows, went)
  }

  /**
   * Insert `rows` (no ON CONFLICT: nothing may collide); the seq of the first, the others following it
   * in order, or 0 when that cannot be told from SQLite's answer (then each row's seq is read by id).
   */
  private insertPlain(rows: NewTransactionRow[]): number {
    const n = this.fill(rows)
    const shared = this.sharedColumns(n)
    const info = this.statement(shared, n, false).run(this.bound(shared, n))
    if (info.changes !== n) throw new Error(`bulk insert: ${info.changes} of ${n} rows inserted`)
    // A statement's rows take consecutive rowids, in order: SQLite gives each new row the largest
    // rowid plus one. Checked on the last row; if it ever failed, the seqs are read by id instead.
    const last = Number(info.lastInsertRowid)
    const lastId = this.idAt.get(last) as StoredId | undefined
    return lastId !== undefined && this.codec.idText(lastId) === rows[n - 1].id ? last - n + 1 : 0
  }

  /** Insert `rows` (inside the caller's transaction; their actors prepared); the ids of those inserted. */
  insert(rows: NewTransactionRow[]): Set<string> {
    const inserted = new Set<string>()
    let i = 0
    for (; rows.length - i >= MIN_CHUNK; i += CHUNK) this.insertChunk(rows.slice(i, i + CHUNK), inserted)
    for (; i < rows.length; i++) {
      this.codec.encodeValues(rows[i], this.row)
      this.single ??= this.raw.prepare(
        `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) VALUES (${TX_COLUMNS.map(() => '?').join(', ')}) ${CONFLICT}`,
      )
      if (this.single.run(this.row).changes === 1) inserted.add(rows[i].id)
    }
    return inserted
  }

  private insertChunk(rows: NewTransactionRow[], inserted: Set<string>): void {
    const n = this.fill(rows)
    const shared = this.sharedColumns(n)
    const changes = this.statement(shared, n, true).run(this.bound(shared, n)).changes
    if (changes === n) {
      for (const row of rows) inserted.add(row.id)
      return
    }
    if (changes === 0) return
    const ids: Value[] = []
    for (let r = 0; r < n; r++) ids.push(this.values[r * WIDTH])
    for (const id of this.presentStatement(n).all(ids) as StoredId[]) inserted.add(this.codec.idText(id))
  }

  /** Encode `rows` into `values`, row after row; how many. */
  private fill(rows: NewTransactionRow[]): number {
    const all = this.values
    for (let r = 0; r < rows.length; r++) {
      this.codec.encodeValues(rows[r], this.row)
      for (let c = 0; c < WIDTH; c++) all[r * WIDTH + c] = this.row[c]
    }
    return rows.length
  }

  /** Which columns of the `n` rows in `values` hold one value for every row; never the id. */
  private sharedColumns(n: number): boolean[] {
    const all = this.values
    const shared: boolean[] = new Array(WIDTH)
    shared[0] = false
    for (let c = 1; c < WIDTH; c++) {
      const v = all[c]
      let same = true
      for (let r = 1; r < n && same; r++) same = all[r * WIDTH + c] === v
      shared[c] = same
    }
    return shared
  }

  /** The values to bind: the shared ones once, then each row's others. */
  private bound(shared: boolean[], n: number): Value[] {
    const all = this.values
    const bound: Value[] = []
    for (let c = 0; c < WIDTH; c++) if (shared[c]) bound.push(all[c])
    for (let r = 0; r < n; r++) for (let c = 0; c < WIDTH; c++) if (!shared[c]) bound.push(all[r * WIDTH + c])
    return bound
  }

  private statement(shared: boolean[], rows: number, onConflict: boolean): BetterSqlite3.Statement {
    const cache = onConflict ? this.chunks : this.plainChunks
    const key = `${shared.map((s) => (s ? 1 : 0)).join('')}:${rows}`
    let stmt = cache.get(key)
    if (stmt) return stmt
    let k = 0
    const select = TX_COLUMNS.map((_, c) => (shared[c] ? '?' : `column${++k}`)).join(', ')
    const tuple = `(${new Array(k).fill('?').join(', ')})`
    const sql = `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) SELECT ${select} FROM (VALUES ${new Array(rows).fill(tuple).join(', ')}) WHERE true ${onConflict ? CONFLICT : ''}`
    stmt = this.raw.prepare(sql)
    if (cache.size >= MAX_STATEMENTS) cache.clear()
    cache.set(key, stmt)
    return stmt
  }

  /** SELECT id FROM transactions WHERE id IN (n ids). */
  private presentStatement(n: number): BetterSqlite3.Statement {
    let stmt = this.present.get(n)
    if (!stmt) {
      stmt = this.raw.prepare(`SELECT id FROM transactions WHERE id IN (${new Array(n).fill('?').join(', ')})`).pluck()
      this.present.set(n, stmt)
    }
    return stmt
  }
}
