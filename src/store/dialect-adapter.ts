/**
 * What the store's shared modules ask of a dialect, so that none of them names one (as kysely's
 * adapters answer `supportsReturning`): each dialect's folder has its `adapter.ts`, handed to the
 * codec, the writes and the migrations by the store it opens.
 */
import type { Kysely, RawBuilder } from 'kysely'
import type { ReportTotalsDialect } from './report-totals.js'
import type { Db, StoredId } from './schema.js'

/**
 * What a dialect can do and the SQL it writes its own way, asked by the domain (`store.sql`) instead
 * of naming the dialect. Each dialect's folder has its `sql.ts`.
 */
export interface DialectSql {
  /**
   * Rows can be locked (SELECT ... FOR UPDATE): PostgreSQL, where a read-modify-write locks what it
   * reads. SQLite's writers take turns (BEGIN IMMEDIATE), so nothing read there can change meanwhile.
   */
  readonly rowLocks: boolean
  /** `text` LIKE `pattern` (escaped with a backslash), ignoring case. */
  likeIgnoringCase(text: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>
  /** A transaction's id ends with these hex digits (lower case, no dashes): a short id. */
  idEndsWith(hex: string): RawBuilder<boolean>
  /** After a table in FROM: read it through this index, where the planner needs telling (SQLite). */
  indexedBy(index: string): RawBuilder<unknown>
  /**
   * The column named `column` is one of `texts`, the list bound as one parameter: one statement of thousands of refs
   * instead of one of 500 placeholders, prepared again each time (docs/performance.md, "Review before it lands").
   */
  inTexts(column: string, texts: readonly string[]): RawBuilder<boolean>
  /** A transaction's id as text, lower case with its dashes, made by the query (shown-transactions.ts). */
  idText(): RawBuilder<string>
}

/** An index of transactions as the database describes it: its name and the statement that creates it. */
export interface IndexDefinition {
  name: string
  sql: string
}

export interface DialectAdapter {
  readonly sql: DialectSql
  /** A transaction id as stored (schema.ts, StoredId); undefined when `id` is not a UUID (no transaction has it). */
  storedId(id: string): StoredId | undefined
  /**
   * Inside a write transaction that inserts events of these companies, before the insert: hold their
   * order to the commit (events.ts), so a reader paging by `seq` never sees a later event first.
   */
  lockEventOrder(trx: Kysely<Db>, companyIds: ReadonlySet<string>): Promise<void>
  /**
   * The indexes of transactions to drop before `rows` rows are deleted and to create again after,
   * inside the same transaction (row-deletes.ts); none where that is not quicker.
   */
  indexesToRebuild(trx: Kysely<Db>, rows: number): Promise<IndexDefinition[]>
  /** The report totals' column types, table options and triggers (report-totals.ts). */
  readonly reportTotals: ReportTotalsDialect
}
