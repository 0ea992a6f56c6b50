/**
 * A SQLite file found damaged (SQLITE_CORRUPT, SQLITE_NOTADB) is marked by a file beside it,
 * `<database>-damaged`, so that every process refuses to write to it from then on, not only the one
 * that read the damaged page: a damaged page is found only when it is read, and a write elsewhere in
 * the file would still succeed. `finctl doctor` removes the mark once SQLite's integrity check of the
 * file passes (a backup restored, or the file repaired).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

export interface DamageMark {
  /** When the damage was found (ISO time). */
  found_at: string
  /** SQLite's words for it. */
  reason: string
}

export const damageMarkPath = (database: string): string => `${database}-damaged`

export function readDamageMark(database: string): DamageMark | undefined {
  const path = damageMarkPath(database)
  if (!existsSync(path)) return undefined
  try {
    const mark = JSON.parse(readFileSync(path, 'utf8')) as Partial<DamageMark>
    return { found_at: String(mark.found_at ?? ''), reason: String(mark.reason ?? 'damaged') }
  } catch {
    return { found_at: '', reason: 'damaged' }
  }
}

/** Mark the file damaged; where the mark cannot be written (a read-only folder), only this process knows. */
export function writeDamageMark(database: string, reason: string, now = new Date()): void {
  if (database === ':memory:' || existsSync(damageMarkPath(database))) return
  try {
    writeFileSync(damageMarkPath(database), `${JSON.stringify({ found_at: now.toISOString(), reason } satisfies DamageMark)}\n`, {
      mode: 0o600,
      flag: 'wx',
    })
  } catch {
    // Kept in memory only.
  }
}

/** Remove the mark (after a passing integrity check); whether there was one. */
export function clearDamageMark(database: string): boolean {
  if (!existsSync(damageMarkPath(database))) return false
  rmSync(damageMarkPath(database), { force: true })
  return true
}
