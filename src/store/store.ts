/**
 * The store interface the core works against. Ordinary queries use `db` (kysely) and run the
 * same on both dialects; the hot paths below (one per request, or per row in bulk) are written
 * per dialect: prepared statements on SQLite, multi-row statements on PostgreSQL.
 */
import type { Kysely } from 'kysely'
import type { DialectSql } from './dialect-adapter.js'
import type { PendingReview, PendingRowValues } from './pending-rows.js'
import type { BankAccountRow, ChainedAuditEntryRow, Db, KeyWithCreator, NewApiRequestRow, NewAuditEntryRow, NewEventRow } from './schema.js'
import type { NewTransactionRow, TransactionCodec } from './transaction-codec.js'

export type { DialectSql }

/** The stores finctl opens (open-store.ts picks one by its target). */
export const DIALECTS = ['sqlite', 'postgres'] as const
export type Dialect = (typeof DIALECTS)[number]

export interface RateLimitInput {
  keyId: string
  minuteWindow: number
  dayWindow: number
  perMinute: number
  perDay: number
  /**
   * A later write of this process syncs the take with its own frames (the request's usage record:
   * on `finctl serve` before the answer, on the embedded core within its flush interval or at close),
   * so the take need not wait on a sync of its own (docs/decisions.md, "Durability").
   */
  syncedLater?: boolean
  /** The request answers only after HotPaths.durable: the take may resolve before its COMMIT. */
  acknowledgedLater?: boolean
}

export interface RateLimitResult {
  allowed: boolean
  minuteCount: number
  dayCount: number
}

export interface HotPaths {
  /** Read afresh on every call, never cached: a creator's demotion or disabling holds at the next request, in every process. */
  findKeyByHash(hash: string): Promise<KeyWithCreator | undefined>
  /** A bank account of a company (every create looks one up). */
  findBankAccount(companyId: string, id: string): Promise<BankAccountRow | undefined>
  /** findBankAccount and the company's lock date (null when no month is closed), as a create needs both: one read on PostgreSQL. */
  findBankAccountAndLock(companyId: string, id: string): Promise<{ account: BankAccountRow | undefined; lockDate: string | null }>
  /** Count one request against both windows of a key, atomically, only if both have room. */
  takeRateLimit(input: RateLimitInput): Promise<RateLimitResult>
  /** Append usage records and bring each key's usage_count and last_used_at in step. */
  insertApiRequests(rows: NewApiRequestRow[]): Promise<void>
  /** insertApiRequests gathers the calls of a turn into one write itself (SQLite's group commit). */
  readonly recordsJoinGroups: boolean
  /**
   * A request's handling (`fn`), in which writes may be acknowledged early (`acknowledgedLater`);
   * before it answers it awaits `durable`: every write of it acknowledged early and every row it
   * read from such a write is committed then, or `durable` rejects (they were undone, and nothing
   * more of the request was written). Nothing to wait for on PostgreSQL.
   */
  answering<T>(fn: () => Promise<T>): Promise<T>
  durable(): Promise<void>
  /**
   * Insert transactions (each says who created it and how: created_by, created_via) in one
   * database transaction. A row whose import_ref already exists for its account is left out;
   * answers which rows went in. Called outside any open transaction (it prepares the creators'
   * actor keys first).
   */
  insertTransactions(rows: NewTransactionRow[], o?: InsertOptions): Promise<InsertedRows>
  /**
   * The bulk load a batch belongs to (`Prefer: bulk-load=N`): the store's one load, begun by its
   * first batch and joined by the others. Its batches go in through it, and its last batch ends it.
   */
  bulkLoad(o: BulkLoadOptions): BulkLoad
  /**
   * A review's rows by line, a line staged already left as it is, with the review's row its first
   * stage makes (pending-rows.ts), in one write. SQLite commits it without an fsync of its own (as a
   * rate-limit take): the batch's finish, a synced write after its last stage, makes it durable with
   * its own, and a batch whose finish never landed is never applied.
   */
  stagePendingRows(review: PendingReview, rows: readonly PendingRowValues[]): Promise<void>
}

export interface BulkLoadOptions {
  /**
   * Rows the client announces for the whole load, sent with each batch: on SQLite a load large
   * enough sets indexes aside until it ends (sqlite/bulk-load.ts). Nothing a client sees depends on it.
   */
  rows: number
}

/**
 * A bulk load: begin (HotPaths.bulkLoad), write batches (insert), end. What a dialect does for a load
 * stays in its folder: SQLite sets indexes aside and end() builds them again (sqlite/bulk-load.ts);
 * PostgreSQL's end() refreshes the table's statistics (postgres/bulk-load.ts).
 */
export interface BulkLoad {
  /** One batch of the load; answers as HotPaths.insertTransactions. */
  insert(rows: NewTransactionRow[], o?: InsertOptions): Promise<InsertedRows>
  /** The load is over: answers once what it set aside is back. */
  end(): Promise<void>
}

/**
 * The rows of an insert that went in: by their place in the array the insert was given (`at`), and
 * their ids (`ids`). A bulk load's insert answers by place: a Set of a batch's ids hashed each new
 * id's text, and looking the rows up in it cost more (docs/performance.md, "Inserting a row"); by
 * place a row is looked up by its index.
 */
export class InsertedRows {
  private constructor(
    private readonly rows: readonly { id: string }[],
    /** 1 where the row at that place went in. */
    private readonly went: Uint8Array,
    readonly size: number,
  ) {}

  /** `went[i]` is 1 where rows[i] went in. */
  static byPlace(rows: readonly { id: string }[], went: Uint8Array): InsertedRows {
    let size = 0
    for (let i = 0; i < rows.length; i++) size += went[i]
    return new InsertedRows(rows, went, size)
  }

  /** From the ids of the rows of `rows` that went in. */
  static ofIds(rows: readonly { id: string }[], ids: ReadonlySet<string>): InsertedRows {
    const went = new Uint8Array(rows.length)
    for (let i = 0; i < rows.length; i++) if (ids.has(rows[i].id)) went[i] = 1
    return InsertedRows.byPlace(rows, went)
  }

  /** The rows the insert was given, in order (those that went in: `at`). */
  given(): readonly { id: string }[] {
    return this.rows
  }

  /** Whether the row at `index` of the array the insert was given went in. */
  at(index: number): boolean {
    return this.went[index] === 1
  }

  /** The ids of the rows that went in, in the order they were given. */
  ids(): string[] {
    const out: string[] = []
    for (let i = 0; i < this.rows.length; i++) if (this.went[i] === 1) out.push(this.rows[i].id)
    return out
  }
}

export interface InsertOptions {
  /**
   * Filled, for rows left out because their account holds their import_ref, with the id of the
   * transaction that holds it (`account_key NUL import_ref` -> id) where the insert found it without
   * a lookup (a bulk load on SQLite); the caller looks up the others (refKey in transaction-codec.ts).
   */
  existing?: Map<string, string>
  /**
   * The event of the insert (docs/events.md), made from the rows that went in and written in the
   * same database transaction as they are; none when it answers undefined (nothing went in).
   */
  event?: (inserted: InsertedRows) => NewEventRow | undefined
  /** The import batch the rows are part of: named in their `rows_created` entries (creations.ts). */
  batch?: string
  /** The request answers only after HotPaths.durable: the insert may resolve before its COMMIT. */
  acknowledgedLater?: boolean
}

/** Writes inside a write transaction that each dialect does its own way (writes.ts). */
export interface DialectWrites {
  /** Entries onto their companies' audit chains (audit-chain.ts). */
  appendAudit(trx: Kysely<Db>, rows: readonly NewAuditEntryRow[], chunk?: number): Promise<void>
  /** The hash of a company's chain head, locked for the transaction: where entries chained elsewhere start (audit-chain.ts). */
  chainHead(trx: Kysely<Db>, companyId: string): Promise<string>
  /** A company's entries chained already (their prev_hash and hash), after its head; refused unless they follow it. */
  appendChained(trx: Kysely<Db>, companyId: string, rows: readonly ChainedAuditEntryRow[]): Promise<void>
  /** Events into the outbox, in order per company (events.ts). */
  insertEvents(trx: Kysely<Db>, rows: readonly NewEventRow[]): Promise<void>
  /** The chained entries of rows just created (creations.ts). */
  chainCreations(trx: Kysely<Db>, rows: readonly NewTransactionRow[], ids: ReadonlySet<string>): Promise<void>
  /** Delete the transactions of these seqs, many at once (row-deletes.ts); their audit entries are the caller's. */
  deleteTransactions(trx: Kysely<Db>, seqs: readonly number[]): Promise<void>
  /** deleteTransactions by runs of seqs [first, last], for a list of seqs too long to hold (a revert's). */
  deleteTransactionRuns(trx: Kysely<Db>, runs: ReadonlyArray<readonly [number, number]>): Promise<void>
}

/** A connection of its own that reads what was committed (open-store.ts, `openCommittedReader`). */
export interface CommittedReader {
  readonly db: Kysely<Db>
  /** Rows decoded as the store decodes them, looked up through this connection. */
  readonly tx: TransactionCodec
  close(): Promise<void>
}

export interface Store {
  readonly dialect: Dialect
  readonly sql: DialectSql
  readonly writes: DialectWrites
  readonly db: Kysely<Db>
  readonly hot: HotPaths
  /** Transactions as the domain reads and writes them, and as they are stored (transaction-codec.ts). */
  readonly tx: TransactionCodec
  /**
   * The file another thread may open a connection of its own on (`openCommittedReader`) to read
   * what was committed while this store writes: SQLite's file; none on PostgreSQL or in memory.
   */
  readonly committedFile?: string
  /** A human description of where the data lives, never with a password. */
  readonly location: string
  /**
   * A read-modify-write transaction. SQLite: BEGIN IMMEDIATE (takes the write lock first, so
   * processes wait for each other instead of failing); PostgreSQL: lock the rows you read with
   * `forUpdate()` (only there: `if (store.sql.rowLocks) q = q.forUpdate()`). Inside `fn`,
   * use only `trx`.
   */
  writeTransaction<T>(fn: (trx: Kysely<Db>) => Promise<T>): Promise<T>
  close(): Promise<void>
}
