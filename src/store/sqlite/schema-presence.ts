/**
 * Whether an index or trigger is in the schema, asked inside each write of rows (bulk-load.ts: the
 * ref index and the report totals' trigger a load may have set aside). A look-up in sqlite_schema
 * scans that table, twice a POST (docs/performance.md, "Where a POST's time goes"). A "there" is
 * kept with the schema cookie (PRAGMA schema_version) it was read at, and only when that cookie is
 * a committed one, read when a write transaction began (`began`) with no schema change since: a
 * change rolled back takes the cookie back, so an uncommitted cookie can come again with another
 * schema, while committed cookies only grow. The same cookie again then means the same schema.
 */
import type BetterSqlite3 from 'better-sqlite3'

export class SchemaPresence {
  // Prepared on first use, as the bulk load's own statements: most commands write no rows.
  private statement: BetterSqlite3.Statement | undefined
  /** The cookie when the last write transaction began: committed. */
  private committed: number | undefined
  /** `${type} ${name}` → the committed cookie at which it was seen there. */
  private readonly seenAt = new Map<string, number>()

  constructor(private readonly raw: BetterSqlite3.Database) {}

  private cookie(): number {
    this.statement ??= this.raw.prepare('PRAGMA schema_version').pluck()
    return this.statement.get() as number
  }

  /** Right after a BEGIN, before any statement of the transaction. */
  began(): void {
    this.committed = this.cookie()
  }

  /** Whether `name` is there, its look-up (`lookup`, undefined when absent) run unless it was seen there at this cookie. */
  has(type: 'index' | 'trigger', name: string, lookup: () => unknown): boolean {
    const key = `${type} ${name}`
    const now = this.cookie()
    if (this.seenAt.get(key) === now) return true
    const there = lookup() !== undefined
    if (there && now === this.committed) this.seenAt.set(key, now)
    else this.seenAt.delete(key)
    return there
  }
}
