/**
 * Whether an index or trigger is in the schema, asked inside each write of rows (bulk-load.ts: the
 * ref index and the report totals' trigger a load may have set aside). A look-up in sqlite_schema
 * scans that table, twice a POST (docs/performance.md, "Where a POST's time goes"). A
 * "there" is kept with the schema cookie it was read at (PRAGMA schema_version): every change of
 * the schema, by this connection or another process, moves the cookie, and a change rolled back
 * takes the cookie back with it, so an unmoved cookie means the same schema.
 */
import type BetterSqlite3 from 'better-sqlite3'

export class SchemaPresence {
  // Prepared on first use, as the bulk load's own statements: most commands write no rows.
  private cookie: BetterSqlite3.Statement | undefined
  /** `${type} ${name}` → the cookie at which it was seen there. */
  private readonly seenAt = new Map<string, number>()

  constructor(private readonly raw: BetterSqlite3.Database) {}

  /** Whether `name` is there, its look-up (`lookup`, undefined when absent) run only when the schema may have changed since it was last seen. */
  has(type: 'index' | 'trigger', name: string, lookup: () => unknown): boolean {
    const key = `${type} ${name}`
    this.cookie ??= this.raw.prepare('PRAGMA schema_version').pluck()
    const now = this.cookie.get() as number
    if (this.seenAt.get(key) === now) return true
    const there = lookup() !== undefined
    if (there) this.seenAt.set(key, now)
    else this.seenAt.delete(key)
    return there
  }
}
