/**
 * kysely's SQLite dialect, taking turns with other writers (turns.ts): a transaction that may
 * write begins IMMEDIATE (a read-only one, a report's snapshot, stays deferred); a statement outside
 * a transaction is tried again while the file is locked, and an INSERT, UPDATE or DELETE outside one
 * runs in a write transaction of its own, so the store's check before every write (a damaged file,
 * indexes a dead bulk load left aside) runs first. Errors leave as the store reports them.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type InsertQueryNode,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
} from 'kysely'
import { isBusy, NOT_NOW, type Turns } from './turns.js'

export interface WriteRules {
  /** better-sqlite3's connection (the one kysely uses). */
  raw: { readonly inTransaction: boolean; exec(sql: string): unknown }
  turns: Turns
  /** Inside a write transaction, before its first statement; throws to refuse the write. */
  beforeWrite(): void
  /** Inside a write transaction, before a statement that inserts into transactions. */
  beforeRowsInsert(): void
  /** A driver's error as the store reports it (store-errors.ts), with what it implies (a damaged file). */
  translate(err: unknown): unknown
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode'])

/** Whether a statement inserts into transactions (a load's report totals trigger must count its rows). */
const insertsRows = (q: CompiledQuery) =>
  q.query.kind === 'InsertQueryNode' && (q.query as InsertQueryNode).into?.table.identifier.name === 'transactions'

export class TurnTakingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly rules: WriteRules,
  ) {
    super(config)
  }

  override createDriver(): Driver {
    return new TurnTakingDriver(this.config, this.rules)
  }
}

/** kysely's SQLite driver, its connection and transactions taking turns. */
class TurnTakingDriver implements Driver {
  private readonly inner: SqliteDriver
  private connection: TurnTakingConnection | undefined

  constructor(
    config: SqliteDialectConfig,
    private readonly rules: WriteRules,
  ) {
    this.inner = new SqliteDriver(config)
  }

  init(): Promise<void> {
    return this.inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.connection ??= new TurnTakingConnection(await this.inner.acquireConnection(), this.rules)
    return this.connection
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (settings.accessMode === 'read only') return this.inner.beginTransaction(connection)
    await (connection as TurnTakingConnection).beginWrite()
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection)
  }

  /** SQLite may have ended the transaction itself (a full disk): then there is nothing to roll back, and the first error stands. */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.rules.raw.inTransaction) await this.inner.rollbackTransaction(connection)
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint(connection, name, compile)
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.inner.rollbackToSavepoint(connection, name, compile)
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint(connection, name, compile)

  releaseConnection(): Promise<void> {
    return this.inner.releaseConnection()
  }

  destroy(): Promise<void> {
    return this.inner.destroy()
  }
}

class TurnTakingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly rules: WriteRules,
  ) {}

  /** BEGIN IMMEDIATE when the lock is free; false (nothing done) while another connection holds it. */
  private begin(): boolean {
    try {
      this.rules.raw.exec('BEGIN IMMEDIATE')
      return true
    } catch (e) {
      if (isBusy(e)) return false
      throw this.rules.translate(e)
    }
  }

  private rollback(): void {
    if (this.rules.raw.inTransaction) this.rules.raw.exec('ROLLBACK')
  }

  async beginWrite(): Promise<void> {
    await this.rules.turns.take(() => (this.begin() ? true : NOT_NOW))
    try {
      this.rules.beforeWrite()
    } catch (e) {
      this.rollback()
      throw this.rules.translate(e)
    }
  }

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const { raw, turns, translate } = this.rules
    if (raw.inTransaction) {
      try {
        if (insertsRows(q)) this.rules.beforeRowsInsert()
      } catch (e) {
        return Promise.reject(translate(e))
      }
      return this.inner.executeQuery<R>(q).catch((e: unknown) => {
        throw translate(e)
      })
    }
    if (WRITES.has(q.query.kind))
      return turns.take(async () => {
        if (!this.begin()) return NOT_NOW
        try {
          this.rules.beforeWrite()
          if (insertsRows(q)) this.rules.beforeRowsInsert()
          const result = await this.inner.executeQuery<R>(q)
          raw.exec('COMMIT')
          return result
        } catch (e) {
          this.rollback()
          throw translate(e)
        }
      })
    // A read, or a statement of its own (BEGIN, PRAGMA, DDL): again while the file is locked.
    return turns.take(async () => {
      try {
        return await this.inner.executeQuery<R>(q)
      } catch (e) {
        if (isBusy(e) && !raw.inTransaction) return NOT_NOW
        throw translate(e)
      }
    })
  }

  streamQuery<R>(q: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(q, chunkSize)
  }
}
