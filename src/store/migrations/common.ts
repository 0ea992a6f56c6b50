/**
 * What every migration file shares: the shape of a migration module and the few column types that
 * differ between the dialects.
 */
import type { Kysely } from 'kysely'
import type { DialectAdapter } from '../dialect-adapter.js'
import type { Dialect } from '../store.js'

export type { Dialect, DialectAdapter }

// biome-ignore lint: migrations work on an untyped database, as their schema changes over time
export type AnyDb = Kysely<any>

/**
 * One migration file: `up` (and `down`) for both dialects, told which one it runs on and handed its
 * adapter (what the store's shared modules ask of it). Its name (the file name, listed in index.ts)
 * is what a database records once it has run.
 */
export interface MigrationModule {
  up(db: AnyDb, dialect: Dialect, adapter: DialectAdapter): Promise<void>
  down?(db: AnyDb, dialect: Dialect, adapter: DialectAdapter): Promise<void>
}

interface Types {
  money: 'integer' | 'bigint'
  bytes: 'blob' | 'bytea'
}

/** Column types that differ: money (minor units) is INTEGER on SQLite, BIGINT on PostgreSQL; bytes BLOB or BYTEA. */
export function types(dialect: Dialect): Types {
  const pg = dialect === 'postgres'
  return { money: pg ? 'bigint' : 'integer', bytes: pg ? 'bytea' : 'blob' }
}
