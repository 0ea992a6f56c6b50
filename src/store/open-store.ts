/**
 * The one place that picks a dialect: a postgres:// URL opens PostgreSQL, anything else is a
 * SQLite file path. Drivers are imported only for the dialect in use.
 */
import type { Store } from './store.js'

export interface OpenStoreOptions {
  schema?: string
  poolSize?: number
}

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target)
}

export async function openStore(target: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(target)) {
    const { openPostgresStore } = await import('./postgres-store.js')
    return openPostgresStore(target, opts)
  }
  const { openSqliteStore } = await import('./sqlite-store.js')
  return openSqliteStore(target)
}
