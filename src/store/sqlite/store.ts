/**
 * The embedded store: SQLite through better-sqlite3 (WAL, foreign keys). Writers on one file take
 * turns (turns.ts): every write transaction begins IMMEDIATE and waits for the lock a bounded,
 * growing while. Hot paths are prepared statements. They run while holding kysely's connection lock,
 * so they never land inside another request's open kysely transaction. Errors of the file (locked,
 * full, damaged, read-only) leave as store errors naming it (store-errors.ts).
 */
import type BetterSqlite3 from 'better-sqlite3'
import { createRequire } from 'node:module'
import { Kysely, type SqliteDatabase } from 'kysely'
import { beginImmediate, FileHealth } from './file-health.js'
import { TurnTakingSqliteDialect } from './dialect.js'
import { atFirstWrite } from '../../kernel/first-write.js'
import { SQLITE_INSERT_EVENT, SQLITE_KEY_WITH_CREATOR } from './sql.js'
import { sqliteAdapter } from './adapter.js'
import { sqliteChainSql, sqliteWrites } from './writes.js'
import { NOT_NOW, SQLITE_BUSY_TIMEOUT_MS, unlessLocked } from './turns.js'
import { AMOUNT_INDEX } from '../migrations/0008_amount_index.js'
import { transactionIndexes } from '../migrations/0011_compact_transactions.js'
import { MIGRATION_COUNT } from '../migrations/count.js'
import { type BulkLoadSettings, bulkLoadSettings, SqliteBulkLoad } from './bulk-load.js'
import { repairDeferredIndexes } from './deferred-indexes.js'
import type { RefTable } from './ref-table.js'
import { TransactionInserter } from './row-inserts.js'
import { prepareRateLimit } from './rate-limit.js'
import { prepareUsage } from './usage.js'
import { GroupCommit } from './group-commit.js'
import type { Db, BankAccountRow, KeyWithCreator, NewApiRequestRow, NewEventRow } from '../schema.js'
import { eventsWritten } from '../events.js'
import { appendAuditSync, type RawChainSql } from '../audit-chain.js'
import {
  insertPendingRowsSync,
  type PendingReview,
  type PendingRowValues,
  type PendingStatements,
  pendingStatements,
} from '../pending-rows.js'
import { entriesOf } from '../creations.js'
import { type NewTransactionRow, TransactionCodec } from '../transaction-codec.js'
import {
  type BulkLoad,
  type BulkLoadOptions,
  InsertedRows,
  type InsertOptions,
  type HotPaths,
  type RateLimitInput,
  type RateLimitResult,
  type Store,
} from '../store.js'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

// Required, not imported: Node's ESM loader would start its CommonJS export scanner for this one
// CommonJS package (docs/performance.md, "Figures behind code comments").
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3

/**
 * mkdir -p, one level at a time: Node's `mkdirSync(dir, { recursive: true })` loops forever (and
 * ignores SIGTERM) where mkdir answers ENOENT under an existing parent, e.g. a path under /proc.
 */
function makeDirs(dir: string): void {
  if (existsSync(dir)) return
  const parent = dirname(dir)
  if (parent !== dir) makeDirs(parent)
  mkdirSync(dir, { mode: 0o700 })
}

export interface SqliteStoreOptions {
  /** The page cache in MiB (default 64). */
  cacheMb?: number
}

export async function openSqliteStore(path: string, o: SqliteStoreOptions = {}): Promise<Store> {
  const health = new FileHealth(path)
  try {
    return await open(path, o, health)
  } catch (e) {
    throw health.translate(e)
  }
}

async function open(path: string, o: SqliteStoreOptions, health: FileHealth): Promise<Store> {
  const isNew = path !== ':memory:' && !existsSync(path)
  if (isNew) makeDirs(dirname(path))
  const raw = new Database(path)
  // Financial data: owner-only, like the profile file (SQLite gives -wal and -shm the same mode).
  if (isNew) chmodSync(path, 0o600)
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  try {
    await health.turns.take(() => unlessLocked(() => raw.pragma('journal_mode = WAL')))
  } catch (e) {
    raw.close()
    throw e
  }
  // Every COMMIT syncs the WAL (NORMAL syncs only at a checkpoint): what a command or `finctl serve`
  // answered as written survives a power failure (docs/decisions.md, "Durability").
  raw.pragma('synchronous = FULL')
  raw.pragma(`cache_size = -${Math.round((o.cacheMb ?? 64) * 1024)}`)
  // Checkpoint the WAL every 64 MiB instead of SQLite's 4 MiB: a batch of 1,000 imported rows
  // writes about 4 MiB of pages (eleven indexes), so the default checkpointed, with its fsyncs, after
  // nearly every batch (docs/performance.md, "Inserting a row"). After a checkpoint the file is cut
  // back to 64 MiB.
  raw.pragma('wal_autocheckpoint = 16384')
  raw.pragma('journal_size_limit = 67108864')
  raw.pragma('foreign_keys = ON')
  let hot: SqliteHotPaths | undefined
  const db = new Kysely<Db>({
    dialect: new TurnTakingSqliteDialect(
      { database: statementCache(raw) },
      {
        raw,
        turns: health.turns,
        translate: health.translate,
        // Not while migrating: the hot paths (and the bulk loader's record) come after.
        beforeWrite: () => hot?.beforeDataWrite(),
        beforeRowsInsert: () => hot?.load.beforeRowsInsert(),
      },
    ),
  })

  // Fast path: user_version counts applied migrations, so an up-to-date file skips the migrator and its modules.
  const applied = raw.pragma('user_version', { simple: true }) as number
  if (applied !== MIGRATION_COUNT) {
    // A migration may change an index that a killed bulk load had set aside: build those first.
    if (applied > 0) repairDeferredIndexes(raw)
    const { migrate, migrations } = await import('../migrations/index.js')
    await migrate(db, migrations('sqlite'))
    await health.turns.take(() => unlessLocked(() => raw.pragma(`user_version = ${MIGRATION_COUNT}`)))
    giveBackFreedSpace(raw)
  }

  const amountIndex = transactionIndexes('sqlite').find((i) => i.includes(` ${AMOUNT_INDEX} `))!
  repairDeferredIndexes(raw, { name: AMOUNT_INDEX, sql: amountIndex })
  // Writes of import_refs through kysely first give back the unique index a bulk load set aside.
  const tx = new TransactionCodec(sqliteAdapter, db, () => hot?.ensureRefIndex())
  hot = new SqliteHotPaths(raw, db, tx, bulkLoadSettings(), health)
  return {
    dialect: 'sqlite',
    sql: sqliteAdapter.sql,
    writes: sqliteWrites(raw, tx),
    db,
    hot,
    tx,
    location: path,
    committedFile: path === ':memory:' || path === '' ? undefined : path,
    // BEGIN IMMEDIATE, waiting its turn (dialect.ts).
    writeTransaction: (fn) =>
      db.transaction().execute(async (trx) => {
        await atFirstWrite(trx)
        return fn(trx)
      }),
    async close() {
      try {
        await hot?.load.end()
      } finally {
        // A build that failed (a full disk) is done by the next write, in this process or another.
        await db.destroy() // closes `raw` too
      }
    },
  }
}

/**
 * After migrations that rewrote a table (0011 rewrites transactions), most of the file may be free
 * pages: VACUUM gives them back to the file system (docs/performance.md, "Storage").
 * VACUUM is atomic; when it cannot run (a full disk: it needs room for a copy; another process
 * reading), the free pages simply stay for later rows.
 */
function giveBackFreedSpace(raw: BetterSqlite3.Database): void {
  const free = raw.pragma('freelist_count', { simple: true }) as number
  const pages = raw.pragma('page_count', { simple: true }) as number
  if (free < 1024 || free * 2 < pages) return
  try {
    raw.exec('VACUUM')
  } catch {
    // Left as free pages.
  }
}

/** An event's values as better-sqlite3 binds them (no undefined). */
function eventParams(e: NewEventRow): Record<string, string | Uint8Array | null> {
  return {
    id: e.id,
    company_id: e.company_id,
    type: e.type,
    object_id: e.object_id ?? null,
    actor: e.actor,
    created_at: e.created_at,
    data: e.data,
    packed_ids: e.packed_ids ?? null,
  }
}

/**
 * kysely's SQLite driver prepares every query anew, a cost of its own in better-sqlite3
 * (docs/performance.md, "Figures behind code comments"); the same SQL text can reuse its statement. Safe because queries on the one connection run one at a time
 * and kysely never streams here (a statement being iterated could not be reused).
 */
function statementCache(raw: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql)
      if (!stmt) {
        if (cache.size >= 1000) cache.clear()
        stmt = raw.prepare(sql)
        cache.set(sql, stmt)
      }
      return stmt as unknown as ReturnType<SqliteDatabase['prepare']>
    },
  }
}

class SqliteHotPaths implements HotPaths {
  private readonly keyByHash: BetterSqlite3.Statement
  private readonly rateLimit: (i: RateLimitInput) => RateLimitResult
  private readonly appendRequests: (rows: NewApiRequestRow[]) => void
  private readonly group: GroupCommit
  private readonly accountById: BetterSqlite3.Statement
  private readonly lockDateById: BetterSqlite3.Statement
  private readonly insertEvent: BetterSqlite3.Statement
  private readonly chainSql: RawChainSql
  private readonly appendTransactions: (rows: NewTransactionRow[]) => Set<string>
  private readonly appendBulk: (rows: NewTransactionRow[], refs: Map<number, RefTable>, existing?: Map<string, string>) => InsertedRows

  readonly recordsJoinGroups = true
  /** This store's bulk load (bulk-load.ts): large loads set the secondary indexes aside. */
  readonly load: SqliteBulkLoad

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly db: Kysely<Db>,
    private readonly codec: TransactionCodec,
    bulk: BulkLoadSettings,
    private readonly health: FileHealth,
  ) {
    this.load = new SqliteBulkLoad(raw, bulk, {
      inWriteQueue: (work) => this.group.run(work),
      beforeDataWrite: () => this.beforeDataWrite(),
      prepareActors: (rows) => codec.prepareActors(rows),
      insert: (rows, io) => this.insertTransactions(rows, io),
      recordEvent: (inserted, io) => this.recordEvent(inserted, io),
      appendRows: (rows) => InsertedRows.ofIds(rows, this.appendTransactions(rows)),
      appendBulk: (rows, refs, existing) => this.appendBulk(rows, refs, existing),
    })
    this.keyByHash = raw.prepare(SQLITE_KEY_WITH_CREATOR)
    this.accountById = raw.prepare('SELECT * FROM bank_accounts WHERE id = ? AND company_id = ?')
    this.lockDateById = raw.prepare('SELECT lock_date FROM companies WHERE id = ?')
    this.insertEvent = raw.prepare(SQLITE_INSERT_EVENT)
    this.chainSql = sqliteChainSql(raw)
    // Inside a write turn's transaction this is a savepoint. Built once: better-sqlite3 builds a
    // transaction function's wrappers anew on each `raw.transaction(fn)` (docs/performance.md, "Where a POST's time goes").
    const savepoint = raw.transaction((work: () => unknown) => work())
    this.group = new GroupCommit({
      inWriteTurn: (work, o) => this.inWriteTurn(work, o),
      savepoint: (work) => savepoint(work) as ReturnType<typeof work>,
      inTransaction: () => raw.inTransaction,
      translate: (e) => health.translate(e),
    })
    this.rateLimit = prepareRateLimit(raw)
    this.appendRequests = prepareUsage(raw)
    const inserter = new TransactionInserter(raw, codec)
    this.appendTransactions = raw.transaction((rows: NewTransactionRow[]) => inserter.insert(rows))
    this.appendBulk = raw.transaction((rows: NewTransactionRow[], refs: Map<number, RefTable>, existing?: Map<string, string>) =>
      inserter.insertBulk(rows, refs, existing),
    )
  }

  /** Run SQLite work while holding kysely's single-connection lock; errors as the store reports them. */
  private locked<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.db
      .connection()
      .execute(async () => fn())
      .catch((e: unknown) => {
        throw this.health.translate(e)
      })
  }

  /**
   * A read on the raw connection, without kysely's lock and its promise hops when no kysely
   * transaction is open (one is waited for); in an open group it sees the group's writes, and its
   * request answers after `durable` (docs/performance.md, "Where a POST's time goes").
   */
  private read<T>(fn: () => T): Promise<T> {
    if (this.raw.inTransaction && !this.group.readsOpenGroup()) return this.locked(fn)
    try {
      return Promise.resolve(fn())
    } catch (e) {
      return Promise.reject(this.health.translate(e))
    }
  }

  /**
   * Run `work` in a write transaction of its own once this connection has the write lock (BEGIN
   * IMMEDIATE), waiting its turn while another holds it; kysely's lock is held while trying and until COMMIT.
   */
  private inWriteTurn<T>(work: () => Promise<T>, o: { unsynced: boolean }): Promise<T> {
    return this.health.turns.take(() =>
      this.locked(async () => {
        // A COMMIT without its own fsync of the WAL: a later synced COMMIT's fsync makes it durable
        // with its own frames (the WAL is appended in order). Back to FULL before anything else runs.
        if (o.unsynced) this.raw.pragma('synchronous = NORMAL')
        try {
          if (!beginImmediate(this.raw)) return NOT_NOW
          this.load.schema.began()
          try {
            const result = await work()
            this.raw.exec('COMMIT')
            return result
          } catch (e) {
            // SQLite may have rolled back already (a full disk).
            if (this.raw.inTransaction) this.raw.exec('ROLLBACK')
            throw e
          }
        } finally {
          if (o.unsynced) this.raw.pragma('synchronous = FULL')
        }
      }),
    )
  }

  /** Before a write of data, inside its transaction: refused on a damaged file; a dead load's indexes built first. */
  beforeDataWrite(): void {
    this.health.refuseIfDamaged()
    this.load.beforeWrite()
  }

  findKeyByHash(hash: string): Promise<KeyWithCreator | undefined> {
    return this.read(() => this.keyByHash.get(hash) as KeyWithCreator | undefined)
  }

  findBankAccount(companyId: string, id: string): Promise<BankAccountRow | undefined> {
    return this.read(() => this.accountById.get(id, companyId) as BankAccountRow | undefined)
  }

  findBankAccountAndLock(companyId: string, id: string): Promise<{ account: BankAccountRow | undefined; lockDate: string | null }> {
    return this.read(() => ({
      account: this.accountById.get(id, companyId) as BankAccountRow | undefined,
      lockDate: (this.lockDateById.get(companyId) as { lock_date: string | null } | undefined)?.lock_date ?? null,
    }))
  }

  takeRateLimit(i: RateLimitInput): Promise<RateLimitResult> {
    return this.group.run(() => this.rateLimit(i), { synced: !i.syncedLater, acknowledgedLater: i.acknowledgedLater })
  }

  /** As the group ends, with the records of the group's other requests: one write for them all. */
  insertApiRequests(rows: NewApiRequestRow[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve()
    return this.group.appendAtEnd(this.appendRequests, rows)
  }

  answering<T>(fn: () => Promise<T>): Promise<T> {
    return this.group.answering(fn)
  }

  durable(): Promise<void> {
    return this.group.durable()
  }

  async insertTransactions(rows: NewTransactionRow[], o: InsertOptions = {}): Promise<InsertedRows> {
    if (rows.length === 0) return InsertedRows.byPlace(rows, new Uint8Array(0))
    await this.codec.prepareActors(rows)
    return this.group.run(() => {
      this.beforeDataWrite()
      this.load.beforeRowsInsert()
      // Its statements' ON CONFLICT names the unique ref index, whether the rows have refs or not.
      this.load.ensureRefIndex()
      return this.recordEvent(InsertedRows.ofIds(rows, this.appendTransactions(rows)), o)
    }, o)
  }

  bulkLoad(o: BulkLoadOptions): BulkLoad {
    return this.load.session(o)
  }

  // Prepared on first use: the tables are there once the migrations have run.
  private staging?: PendingStatements

  /** Prepared statements of many rows each, unsynced: HotPaths.stagePendingRows says why that is durable enough. */
  stagePendingRows(review: PendingReview, rows: readonly PendingRowValues[]): Promise<void> {
    return this.group.run(
      () => {
        this.beforeDataWrite()
        this.staging ??= pendingStatements((sql) => this.raw.prepare(sql))
        this.staging.review.run(review.batch_id, review.company_id, review.expires_at, review.checked_shape)
        insertPendingRowsSync(this.staging, review.batch_id, rows)
      },
      { synced: false },
    )
  }

  /**
   * Inside the insert's transaction: its event (docs/events.md) and its creation's audit entry
   * (creations.ts) go in with its rows.
   */
  private recordEvent(inserted: InsertedRows, o: InsertOptions): InsertedRows {
    if (inserted.size) appendAuditSync(this.chainSql, entriesOf(inserted, this.codec, o.batch))
    const event = o.event?.(inserted)
    if (event) {
      this.insertEvent.run(eventParams(event))
      eventsWritten()
    }
    return inserted
  }

  /** Inside a write transaction that writes import_refs: the unique index is there (bulk-load.ts). */
  ensureRefIndex(): void {
    this.load.ensureRefIndex()
  }
}
