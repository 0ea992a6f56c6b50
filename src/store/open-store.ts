/**
 * The one place that picks a dialect: a postgres:// URL opens PostgreSQL, anything else is a
 * SQLite file path. Drivers are imported only for the dialect in use.
 */
import type { CommittedReader, Store } from './store.js'

export interface OpenStoreOptions {
  schema?: string
  poolSize?: number
  /** SQLite's page cache in MiB (default 64). */
  sqliteCacheMb?: number
}

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target)
}

/** `postgres://.../db?schema=name` works in that schema (created if missing); pg never sees the parameter. */
export function splitSchema(url: string): { url: string; schema?: string } {
  const u = new URL(url)
  const schema = u.searchParams.get('schema') ?? undefined
  u.searchParams.delete('schema')
  return { url: u.toString(), schema }
}

export async function openStore(target: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(target)) {
    const { openPostgresStore } = await import('./postgres/store.js')
    const { url, schema } = splitSchema(target)
    return openPostgresStore(url, { ...opts, schema: opts.schema ?? schema })
  }
  const { openSqliteStore } = await import('./sqlite/store.js')
  return openSqliteStore(target, { cacheMb: opts.sqliteCacheMb })
}

/** A read-only connection of its own on a store's `committedFile`, reading in one snapshot what was committed. */
export async function openCommittedReader(file: string): Promise<CommittedReader> {
  const { openSqliteReader } = await import('./sqlite/committed-reader.js')
  return openSqliteReader(file)
}
