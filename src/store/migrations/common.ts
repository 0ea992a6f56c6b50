/**
 * What every migration file shares: the shape of a migration module and the few column types that
 * differ between the dialects.
 */
import type { Kysely } from 'kysely'
import type { Dialect } from '../store.js'

export type { Dialect }

// biome-ignore lint: migrations work on an untyped database, as their schema changes over time
export type AnyDb = Kysely<any>

/**
 * One migration file: `up` (and `down`) for both dialects, told which one it runs on. Its name
 * (the file name, listed in index.ts) is what a database records once it has run.
 */
export interface MigrationModule {
  up(db: AnyDb, dialect: Dialect): Promise<void>
  down?(db: AnyDb, dialect: Dialect): Promise<void>
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
