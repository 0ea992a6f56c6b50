/**
 * A read-only connection of its own on a SQLite file, for a thread beside the one writing
 * (a large revert's entries thread: domain/imports/revert-thread.ts). It reads in one read
 * transaction what was committed when it began: in WAL mode the writer's open transaction is not
 * seen, and while that writer holds the write lock (BEGIN IMMEDIATE) nothing else can commit, so
 * it reads the rows as they were when the writer began. It must be closed before the writer
 * commits, or the checkpoint after that COMMIT cannot go past its snapshot.
 */
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { CommittedReader } from '../store.js'
import type { Db } from '../schema.js'
import { TransactionCodec } from '../transaction-codec.js'
import { sqliteAdapter } from './adapter.js'
import { SQLITE_BUSY_TIMEOUT_MS } from './turns.js'

export function openSqliteReader(path: string): CommittedReader {
  const raw = new Database(path, { readonly: true, fileMustExist: true })
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: raw }) })
  // One snapshot for every read (taken at the first one).
  raw.exec('BEGIN')
  return {
    db,
    tx: new TransactionCodec(sqliteAdapter, db),
    async close() {
      if (raw.inTransaction) raw.exec('COMMIT')
      await db.destroy() // closes `raw` too
    },
  }
}
