/**
 * Bulk loads on SQLite: the indexes of `transactions` that rows land on at random are set aside while
 * a large load goes in and built again, each by one sort, once it ends, instead of taking every row
 * as a random insert into each of them. A batch announces the load (`Prefer: bulk-load=N`, sent by
 * `tx import`).
 *
 * What is set aside: every index that is not UNIQUE, but for the one whose key grows with every row
 * created whatever the file's order (company, created_at; each row appends to its last page) and the
 * partial one of statement rows (KEPT), and the unique (account_key, import_ref) index. That one is
 * what makes an import exactly-once, and for a file not in date order (a merged export, a file
 * sorted by amount) it took more time than all the rest (docs/performance.md, "Bulk loads set
 * indexes aside"). While it is aside, the load keeps each account's refs
 * in memory (RefTable, ref-table.ts), loaded from the index just before it is dropped, and the hot
 * path's insertBulk dedups against them. The unique id and statement_ref indexes stay (ids are
 * time-ordered; statement rows are few).
 *
 * Exactly-once does not rest on the loader's memory alone. Every other write of an import_ref, in
 * this process or another (a create, a batch that is not a bulk load, a statement line paired with an
 * imported row), first builds the unique index again inside its own write transaction
 * (ensureRefIndex); the loader sees it back at its next batch and finishes with ON CONFLICT, as
 * without a load. SQLite's write lock orders all of it.
 *
 * When: at least `minRows` rows announced, and at least a fifth of the rows the table holds, so that
 * the rebuild (it sorts the whole table) stays small beside what the load saves.
 *
 * Crash safety. The indexes are dropped inside the first bulk batch's transaction, in the same
 * transaction that writes their definitions into `settings` (key `deferred_indexes`) with a lease:
 * the process id of the loader and a time (renewed with every batch). Either both happen or neither.
 * The rebuild creates them all and deletes the key in one transaction. A process that opens the file
 * and finds the key builds the indexes at once unless the loader is still alive and its lease
 * current: a `kill -9` in the middle of a load is repaired by the next `finctl` that opens the file
 * (on another machine, a network file system, once the lease has run out); the unique index builds
 * because no two rows share a ref. Readers never fail meanwhile: without an index a query scans.
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { NewTransactionRow } from '../transaction-codec.js'
import type { BulkLoad, BulkLoadOptions, InsertOptions, InsertedRows } from '../store.js'
import { abandoned, buildDeferred, DEFERRED_SQL, type Deferred, ifNotExists, readDeferred, writeDeferred } from './deferred-indexes.js'
import { MAX_SEQ, parseRefText, RefTable, refHash, refTextSql } from './ref-table.js'
import { addRowsSql, INSERT_TRIGGER } from '../report-totals.js'
import { SchemaPresence } from './schema-presence.js'

export interface BulkLoadSettings {
  /**
   * Fewest rows announced for the indexes to be set aside (FINCTL_BULK_LOAD_MIN_ROWS, default 10,000):
   * below, the rebuild's sort would cost about what it saves. Once 100,000, which left a file of an
   * estimated 99,970 rows (the plan estimates a large file's rows from its size) with its indexes in
   * place: newest first, its rows filled each index page half and took twice as long
   * (docs/performance.md, "Bulk loads set indexes aside").
   */
  minRows: number
  /** Quiet time after the last bulk batch before the indexes are built again (FINCTL_BULK_LOAD_IDLE_MS, default 2 s). */
  idleMs: number
}

export function bulkLoadSettings(env: NodeJS.ProcessEnv = process.env): BulkLoadSettings {
  const read = (name: string, fallback: number) => {
    const n = Number(env[name])
    return Number.isInteger(n) && n > 0 ? n : fallback
  }
  return { minRows: read('FINCTL_BULK_LOAD_MIN_ROWS', 10_000), idleMs: read('FINCTL_BULK_LOAD_IDLE_MS', 2_000) }
}

/**
 * Secondary indexes that stay in place during a bulk load, because a loaded row costs them next to
 * nothing: company_created takes each row at its end in any file order; statement is partial (rows
 * with a bank_statement_id), and a created row has none (pairing with a statement line sets it later,
 * a row at a time), so a load adds nothing to it, and its build after the load was a scan of the
 * whole table for no entry (docs/performance.md, "Bulk loads set indexes aside").
 */
export const KEPT = ['transactions_company_created', 'transactions_statement']

/** The unique index of imported rows' identities, set aside too (see above). */
export const REF_INDEX = 'transactions_import_ref'

/** The page cache of a connection while it loads (KiB): what the embedded import's core always uses. */
const LOAD_CACHE_KIB = 8 * 1024
/** How long a bulk load's lease outlives its last batch. */
export const LEASE_MS = 60_000
/** A load at least this share of the rows already there sets the indexes aside (1 / 5). */
const SHARE_DIVISOR = 5

/**
 * Rows of refs read as one text (loadRefs): about 80 KB of text for refs of 33 characters, which the
 * young generation takes and frees. Chunks of 65,536 rows (2.6 MB texts, which V8 keeps among its
 * large objects until a full collection) were no faster and raised an import's peak RSS
 * (docs/performance.md, "Bulk loads set indexes aside").
 */
const REF_CHUNK = 2048

/** How a load's rows go in: the store's own write paths. */
export interface BulkLoadWrites {
  /** Runs work in the store's write queue (its transaction), as every write does. */
  inWriteQueue<T>(work: () => T): Promise<T>
  /** Inside a write transaction, before a write of data (a damaged file refuses it; beforeWrite below). */
  beforeDataWrite(): void
  /** The creators' actor keys of `rows`, prepared outside any transaction. */
  prepareActors(rows: NewTransactionRow[]): Promise<void>
  /** The ordinary insert, in a transaction of its own (a batch of a load too small to set indexes aside). */
  insert(rows: NewTransactionRow[], o: InsertOptions): Promise<InsertedRows>
  /** Inside the batch's transaction: its event, if it has one (docs/events.md). */
  recordEvent(inserted: InsertedRows, o: InsertOptions): InsertedRows
  /** Inside a transaction: the rows against the unique ref index (ON CONFLICT). */
  appendRows(rows: NewTransactionRow[]): InsertedRows
  /** Inside a transaction: the rows deduplicated against the load's refs in memory. */
  appendBulk(rows: NewTransactionRow[], refs: Map<number, RefTable>, existing?: Map<string, string>): InsertedRows
}

/**
 * This store's bulk load, one at a time: begun by the first batch that announces enough rows (it
 * sets the indexes aside), joined by the later batches of the same load, and ended by end() (the
 * load's last batch, or closing the store), which builds them again. A load that goes quiet (its
 * client gone without an end) ends itself after `idleMs`; one whose process died is built by the
 * next process that opens the file (repairDeferredIndexes) or writes to it (beforeWrite).
 */
export class SqliteBulkLoad {
  /** This process set indexes aside and has not built them again yet. */
  private deferred: Deferred | undefined
  /** The load has ended (end() was called) but building its indexes failed: the next write builds them first. */
  private unbuilt = false
  /** The page cache (PRAGMA cache_size) before the load made it small; restored once the indexes are back. */
  private cacheBefore: number | undefined
  /**
   * While this process's load has the unique ref index aside: the refs of each account the load
   * writes to (by account key). Undefined otherwise, and as soon as the index is back.
   */
  private refs: Map<number, RefTable> | undefined
  private rebuildTimer: NodeJS.Timeout | undefined
  /**
   * This process's load has the report totals' insert trigger aside: each of its batches adds its rows
   * to the totals by one grouped upsert a table (addTotals), in the batch's own transaction.
   */
  private totalsAside = false
  /** Inside the load's own batch: its write does not give the trigger back (beforeWrite). */
  private batching = false
  constructor(
    private readonly raw: BetterSqlite3.Database,
    readonly settings: BulkLoadSettings,
    private readonly writes: BulkLoadWrites,
    /** Told by the store when its write turns begin (SchemaPresence.began). */
    readonly schema = new SchemaPresence(raw),
  ) {}

  // Its statements are prepared on first use: every store makes one, and most commands load nothing.
  private readonly prepared = new Map<string, BetterSqlite3.Statement>()
  private once(sql: string, shape?: 'pluck' | 'raw'): BetterSqlite3.Statement {
    let s = this.prepared.get(sql)
    if (!s) {
      s = this.raw.prepare(sql)
      if (shape === 'pluck') s.pluck()
      else if (shape === 'raw') s.raw()
      this.prepared.set(sql, s)
    }
    return s
  }
  // max(rowid) stands for the row count: exact enough, and it costs one step down the table's tree.
  private get rowCount() {
    return this.once('SELECT max(rowid) AS n FROM transactions')
  }
  private get secondary() {
    return this.once(
      `SELECT name, sql FROM sqlite_schema
       WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %'
         AND name NOT IN (${KEPT.map((k) => `'${k}'`).join(', ')})
       ORDER BY name`,
    )
  }
  private get indexSql() {
    return this.once(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?`, 'pluck')
  }
  private get accountRefs() {
    return this.once('SELECT seq, import_ref FROM transactions WHERE account_key = ? AND import_ref IS NOT NULL', 'raw')
  }
  private get accountRefCount() {
    return this.once('SELECT count(*) FROM transactions WHERE account_key = ? AND import_ref IS NOT NULL', 'pluck')
  }
  private get refTextFirst() {
    return this.once(refTextSql(false))
  }
  private get refTextNext() {
    return this.once(refTextSql(true))
  }
  private get deferredRecord() {
    return this.once(DEFERRED_SQL)
  }
  private get triggerSql() {
    return this.once(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`, 'pluck')
  }
  private get addTotals() {
    return addRowsSql('rowid > ?').map((q) => this.once(q))
  }

  /**
   * An account's refs (`count` of them) in a table sized for `expected`, read from the unique index
   * before it goes. Read as texts of REF_CHUNK rows, each row `seq bytes ref` (bytes: the ref's
   * length in UTF-8), hashed where they lie (parseRefText), no string a ref: nearly twice as fast as
   * a row at a time, an array and a string a row out of better-sqlite3. (Adding them sorted by hash,
   * a chunk at a time, was no faster; a whole account at once was faster but held two arrays of the
   * account's length; docs/performance.md, "Bulk loads set indexes aside".) A text that does not read
   * back as such rows (it cannot, from refs as the API takes them) sends the account down the
   * row-at-a-time path.
   */
  private loadRefs(account: number, count: number, expected: number): RefTable {
    const table = new RefTable(expected)
    const hashes = new Uint32Array(Math.min(count, REF_CHUNK))
    const seqs = new Uint32Array(hashes.length)
    let n = 0
    try {
      let last: string | undefined
      for (;;) {
        const chunk = (last === undefined ? this.refTextFirst.get(account, REF_CHUNK) : this.refTextNext.get(account, last, REF_CHUNK)) as {
          text: string | null
          last: string | null
          n: number
        }
        if (chunk.n === 0) break
        if (n + chunk.n > count || chunk.text === null || chunk.last === null) throw new Error('refs: not as counted')
        const got = parseRefText(chunk.text, chunk.n, hashes, seqs, 0)
        for (let i = 0; i < got; i++) table.add(hashes[i], seqs[i])
        n += chunk.n
        last = chunk.last
      }
      if (n !== count) throw new Error('refs: not as counted')
      return table
    } catch {
      const again = new RefTable(expected)
      for (const [seq, ref] of this.accountRefs.iterate(account) as IterableIterator<[number, string]>) again.add(refHash(ref), seq)
      return again
    }
  }

  /** The load a batch announcing `o.rows` rows belongs to, as the domain sees it. */
  session(o: BulkLoadOptions): BulkLoad {
    return { insert: (rows, io) => this.insert(o.rows, rows, io), end: () => this.end() }
  }

  /** Whether a batch announcing `announced` rows is part of a load large enough to set indexes aside. */
  private isBulk(announced: number): boolean {
    return announced >= this.settings.minRows
  }

  /** A batch of a load announcing `announced` rows; a load too small for it takes the ordinary insert. */
  private async insert(announced: number, rows: NewTransactionRow[], o: InsertOptions = {}): Promise<InsertedRows> {
    if (rows.length === 0 || !this.isBulk(announced)) return this.writes.insert(rows, o)
    await this.writes.prepareActors(rows)
    const refAccounts = new Set<number>()
    for (const r of rows) if (r.import_ref) refAccounts.add(r.account_key)
    return this.writes
      .inWriteQueue(() => {
        this.batching = true
        try {
          this.writes.beforeDataWrite()
        } finally {
          this.batching = false
        }
        this.enter(announced, refAccounts)
        // Another process's load may have the trigger aside: rows outside it take it back first.
        if (!this.totalsAside) this.ensureTotalsTrigger()
        const after = this.totalsAside ? ((this.rowCount.get() as { n: number | null }).n ?? 0) : 0
        const refs = this.refs
        let inserted: InsertedRows
        if (refs) inserted = this.writes.appendBulk(rows, refs, o.existing)
        else {
          // Not this process's load (another's is running): the row path, against the unique index.
          this.ensureRefIndex()
          inserted = this.writes.appendRows(rows)
        }
        // The batch's rows are those past the last rowid before it (the write lock is held).
        if (this.totalsAside) for (const q of this.addTotals) q.run(after)
        return this.writes.recordEvent(inserted, o)
      })
      .finally(() => this.scheduleRebuild())
  }

  /**
   * Inside a bulk batch's transaction: set the indexes aside (first batch of a load), renew the lease.
   * `accounts`: the account keys of the batch's rows with a ref; a load keeps the refs of the accounts
   * of its first batch in memory, and a later account gives the unique index back (ensureRefIndex).
   */
  private enter(announced: number, accounts: ReadonlySet<number>): void {
    const until = new Date(Date.now() + LEASE_MS).toISOString()
    if (this.deferred) {
      this.deferred.until = until
      // Another write gave the trigger back: it counts the rows from now on.
      if (this.totalsAside && this.triggerSql.get(INSERT_TRIGGER) !== undefined) {
        this.totalsAside = false
        this.deferred.indexes = this.deferred.indexes.filter((i) => i.name !== INSERT_TRIGGER)
      }
      if (this.refs) {
        // Another write of refs built the index again (this process or another): ON CONFLICT from now on.
        if (this.indexSql.get(REF_INDEX) !== undefined) {
          this.refs = undefined
          this.deferred.indexes = this.deferred.indexes.filter((i) => i.name !== REF_INDEX)
        } else if ([...accounts].some((a) => !this.refs!.has(a))) this.ensureRefIndex()
      }
      writeDeferred(this.raw, this.deferred)
      return
    }
    const existing = (this.rowCount.get() as { n: number | null }).n ?? 0
    if (announced * SHARE_DIVISOR < existing) return
    // Another process's load is running: this one goes the row path beside it (the caller gives the
    // unique index back first when its rows have refs), so that one process's memory of refs is never
    // half the truth. A load left behind by a dead process was built again before this write.
    const other = readDeferred(this.raw, this.deferredRecord)
    if (other && !this.over(other)) return
    const before = other?.indexes ?? []
    const now = this.secondary.all() as Array<{ name: string; sql: string }>
    // The refs of the batch's accounts, read from the unique index before it goes (seqs in 32 bits).
    const refSql = this.indexSql.get(REF_INDEX) as string | undefined
    if (refSql !== undefined && existing + announced <= MAX_SEQ) {
      const refs = new Map<number, RefTable>()
      for (const account of accounts) {
        const count = this.accountRefCount.get(account) as number
        refs.set(account, this.loadRefs(account, count, count + announced))
      }
      this.refs = refs
      now.push({ name: REF_INDEX, sql: refSql })
    }
    const trigger = this.triggerSql.get(INSERT_TRIGGER) as string | undefined
    const indexes = [...before.filter((b) => !now.some((n) => n.name === b.name)), ...now]
    for (const { name } of now) this.raw.exec(`DROP INDEX "${name.replace(/"/g, '""')}"`)
    if (trigger !== undefined) {
      // Built again last, at the end (buildDeferred runs the list in order), once every batch added its rows.
      indexes.push({ name: INSERT_TRIGGER, sql: trigger })
      this.raw.exec(`DROP TRIGGER ${INSERT_TRIGGER}`)
      this.totalsAside = true
    }
    this.deferred = { until, pid: process.pid, indexes }
    writeDeferred(this.raw, this.deferred)
    // The load writes at the edge of each index left: a small page cache does, and the rebuild's
    // sorts take their memory from it too (a server's usual cache raised a load's peak RSS:
    // docs/performance.md, "Bulk loads set indexes aside").
    const cache = this.raw.pragma('cache_size', { simple: true }) as number
    if (cache < -LOAD_CACHE_KIB || cache > LOAD_CACHE_KIB / 4) {
      this.cacheBefore = cache
      this.raw.pragma(`cache_size = -${LOAD_CACHE_KIB}`)
    }
  }

  /**
   * Inside a write transaction that writes import_refs outside a bulk load's own inserts: build the
   * unique ref index again if a load (of this process or another) set it aside, and take it off that
   * load's list. A loader finds it back at its next batch. Cheap when the index is there.
   */
  ensureRefIndex(): void {
    if (this.schema.has('index', REF_INDEX, () => this.indexSql.get(REF_INDEX))) return
    this.refs = undefined
    const d = readDeferred(this.raw, this.deferredRecord)
    const sql =
      d?.indexes.find((i) => i.name === REF_INDEX)?.sql ?? `CREATE UNIQUE INDEX ${REF_INDEX} ON transactions (account_key, import_ref)`
    this.raw.exec(ifNotExists(sql))
    if (!d) return
    const rest = { ...d, indexes: d.indexes.filter((i) => i.name !== REF_INDEX) }
    writeDeferred(this.raw, rest)
    if (this.deferred) this.deferred = { ...this.deferred, indexes: this.deferred.indexes.filter((i) => i.name !== REF_INDEX) }
  }

  /**
   * Inside a write transaction, before a write of rows: indexes set aside by a load that is over (its
   * loader dead, its lease run out, or this process's load whose build failed) are built first; a
   * build that fails (a full disk) fails the write with its reason. A live load's indexes stay aside.
   */
  beforeWrite(): void {
    if (this.deferred) {
      if (!this.unbuilt) return
      this.refs = undefined
      // Built inside this write's transaction, which may roll back: done once a later write finds no record.
      const d = readDeferred(this.raw, this.deferredRecord)
      if (d && d.pid === this.deferred.pid && d.until === this.deferred.until) {
        buildDeferred(this.raw, this.deferred)
        return
      }
      this.deferred = undefined
      this.unbuilt = false
      this.restoreCache()
    }
    const d = readDeferred(this.raw, this.deferredRecord)
    if (d && this.over(d)) buildDeferred(this.raw, d)
  }

  /**
   * Inside a write transaction, before rows go into transactions outside this load's own batches:
   * the report totals' insert trigger back, if a load (of this process or another) set it aside, so
   * that it counts them. Other writes (a webhook's delivery, a key's usage) leave it aside: the load
   * keeps adding each batch's totals at once (one grouped upsert, not the trigger row by row).
   */
  beforeRowsInsert(): void {
    if (!this.batching) this.ensureTotalsTrigger()
  }

  /**
   * Inside a write transaction that may insert rows outside a load's batches: give the report totals'
   * insert trigger back if a load (of this process or another) set it aside. The rows that load wrote
   * have their totals already (each batch added its own); its next batch finds the trigger back.
   */
  private ensureTotalsTrigger(): void {
    if (this.schema.has('trigger', INSERT_TRIGGER, () => this.triggerSql.get(INSERT_TRIGGER))) return
    const d = readDeferred(this.raw, this.deferredRecord)
    const sql = d?.indexes.find((i) => i.name === INSERT_TRIGGER)?.sql
    if (!d || sql === undefined) return
    this.raw.exec(ifNotExists(sql))
    writeDeferred(this.raw, { ...d, indexes: d.indexes.filter((i) => i.name !== INSERT_TRIGGER) })
    if (this.deferred) this.deferred = { ...this.deferred, indexes: this.deferred.indexes.filter((i) => i.name !== INSERT_TRIGGER) }
    this.totalsAside = false
  }

  /** Whether the load of record `d` is over (another store of this process may be loading: a pid alone does not say). */
  private over(d: Deferred): boolean {
    return abandoned(d, new Date().toISOString())
  }

  private restoreCache(): void {
    if (this.cacheBefore !== undefined) this.raw.pragma(`cache_size = ${this.cacheBefore}`)
    this.cacheBefore = undefined
  }

  /** After a bulk batch: build the indexes again once the load has been quiet for the idle time. */
  private scheduleRebuild(): void {
    if (!this.deferred) return
    clearTimeout(this.rebuildTimer)
    this.rebuildTimer = setTimeout(() => void this.end().catch(() => {}), this.settings.idleMs)
    this.rebuildTimer.unref()
  }

  /** The load's end: build the indexes this process set aside (its last batch, the idle timer, or closing the store). */
  async end(): Promise<void> {
    clearTimeout(this.rebuildTimer)
    const d = this.deferred
    if (!d) return
    try {
      await this.writes.inWriteQueue(() => {
        this.refs = undefined
        // No batch of this load follows: from here the trigger counts rows, or beforeWrite gives it back.
        this.totalsAside = false
        // Another write may have built them meanwhile (beforeWrite, after a failed build).
        if (this.deferred) buildDeferred(this.raw, this.deferred)
      })
    } catch (e) {
      this.unbuilt = this.deferred !== undefined
      throw e
    }
    this.deferred = undefined
    this.unbuilt = false
    this.restoreCache()
  }
}
