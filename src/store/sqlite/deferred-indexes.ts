/**
 * The record of a SQLite bulk load's indexes set aside (bulk-load.ts): their definitions and the
 * loader's lease in `settings`, written in the transaction that drops them and deleted in the one that
 * builds them again; and the repair, on opening the file, of a load whose loader is gone.
 */
import type BetterSqlite3 from 'better-sqlite3'

/** The `settings` key that holds the definitions of the indexes set aside, and the loader's lease. */
export const DEFERRED_KEY = 'deferred_indexes'
/** Before this version only the amount index was set aside, under this key (an ISO time). */
const OLD_LEASE_KEY = 'amount_index_lease'
/**
 * The page cache while the indexes are built (KiB). SQLite's sorter sizes its in-memory runs from
 * the cache, and a bigger run was slower, not faster, and raised the peak RSS (docs/performance.md,
 * "Memory of an import").
 */
const BUILD_CACHE_KIB = 2 * 1024

export interface Deferred {
  /** The loader's lease: until this time, or while process `pid` of this machine lives. */
  until: string
  pid: number
  /** Name and CREATE statement of each index set aside (and of the report totals' insert trigger: sqlite/bulk-load.ts). */
  indexes: Array<{ name: string; sql: string }>
}

export const DEFERRED_SQL = 'SELECT value FROM settings WHERE key = ?'
/** The record of indexes set aside, if any; `statement`: DEFERRED_SQL prepared on `raw` (every write reads it). */
export function readDeferred(raw: BetterSqlite3.Database, statement = raw.prepare(DEFERRED_SQL)): Deferred | undefined {
  const row = statement.get(DEFERRED_KEY) as { value: string } | undefined
  return row ? (JSON.parse(row.value) as Deferred) : undefined
}

export function writeDeferred(raw: BetterSqlite3.Database, d: Deferred): void {
  raw
    .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(DEFERRED_KEY, JSON.stringify(d))
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** CREATE [UNIQUE] INDEX IF NOT EXISTS (or CREATE TRIGGER IF NOT EXISTS), from its definition. */
export const ifNotExists = (sql: string) =>
  sql
    .replace(/^CREATE (UNIQUE )?INDEX /i, (_, u: string | undefined) => `CREATE ${u ?? ''}INDEX IF NOT EXISTS `)
    .replace(/^CREATE TRIGGER /i, 'CREATE TRIGGER IF NOT EXISTS ')

/**
 * Create every index set aside (those still missing) and end the lease. Run inside a transaction.
 * SQLite sorts each with a helper thread (PRAGMA threads): a load's last rows are in, so the other
 * core is free (docs/performance.md, "Bulk loads set indexes aside").
 */
export function buildDeferred(raw: BetterSqlite3.Database, d: Deferred): void {
  const threads = raw.pragma('threads', { simple: true }) as number
  const cache = raw.pragma('cache_size', { simple: true }) as number
  raw.pragma('threads = 2')
  raw.pragma(`cache_size = -${BUILD_CACHE_KIB}`)
  try {
    for (const { sql } of d.indexes) raw.exec(ifNotExists(sql))
  } finally {
    raw.pragma(`threads = ${threads}`)
    raw.pragma(`cache_size = ${cache}`)
  }
  raw.prepare('DELETE FROM settings WHERE key IN (?, ?)').run(DEFERRED_KEY, OLD_LEASE_KEY)
}

/** Whether the load that set `d` aside is over without having built its indexes: its loader gone, or its lease run out. */
export function abandoned(d: Deferred, now: string): boolean {
  return d.until <= now || !alive(d.pid)
}

/**
 * On opening the file: indexes set aside by a load whose loader is gone (or whose lease has run out)
 * are built now. `amountIndex` is the one index that versions before this one set aside (under
 * another key): built when it is missing and no such lease is current. Where that cannot be done
 * now (the file busy or full), the next write does it first, or fails (BulkLoader.beforeWrite).
 */
export function repairDeferredIndexes(raw: BetterSqlite3.Database, amountIndex?: { name: string; sql: string }): void {
  const d = readDeferred(raw)
  const now = new Date().toISOString()
  const indexes = [...(d && abandoned(d, now) ? d.indexes : [])]
  if (amountIndex && !d && !raw.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?`).get(amountIndex.name)) {
    const old = raw.prepare('SELECT value FROM settings WHERE key = ?').get(OLD_LEASE_KEY) as { value: string } | undefined
    if (!old || old.value <= now) indexes.push(amountIndex)
  }
  if (indexes.length === 0) return
  try {
    raw.transaction(() => buildDeferred(raw, { until: now, pid: 0, indexes })).immediate()
  } catch {
    // A read-only file, busy, full: queries scan without the indexes meanwhile, and writes build them first.
  }
}

/** One process's side of bulk loads on one database. */
