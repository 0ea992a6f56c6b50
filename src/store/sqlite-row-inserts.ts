/**
 * Inserting transactions on SQLite, the hot path of batches and imports.
 *
 * What a row costs here is mostly binding: better-sqlite3 converts and copies each bound value, about
 * 0.4 µs apiece, and a transaction has 26 columns. In a batch most columns hold one value for every
 * row (the company, the account, the currency, the status, who created it and when, the nulls), so
 * rows go in chunks of up to CHUNK rows, one statement each, that bind such a value once:
 *
 *   INSERT INTO transactions (c1, …, c26) SELECT column1, ?, column2, … FROM (VALUES (?, ?), (?, ?), …) WHERE true
 *   ON CONFLICT (bank_account_id, import_ref) DO NOTHING RETURNING id
 *
 * The `?` of the SELECT list take the shared values, the VALUES rows the values that differ (`WHERE
 * true` is SQLite's rule for an upsert whose source is a SELECT). Measured on 300k rows of an import,
 * in memory with the unique index: 14.7 µs a row one row a statement, 8.3 µs in chunks of 100 with
 * the shared values bound once; chunks binding every value were no faster than single rows.
 *
 * Rows whose import_ref the account holds already are left out, as one row a statement would leave
 * them out; RETURNING names the rows inserted. Fewer rows than MIN_CHUNK go one a statement.
 */
import type BetterSqlite3 from 'better-sqlite3'
import { type NewTransactionRow, TX_COLUMNS } from './schema.js'

/** Rows a statement at most (26 columns each stays far under SQLite's 32,766 parameters). */
const CHUNK = 100
/** Fewer rows than this go one a statement: a chunk's statement is prepared once per shape and size. */
const MIN_CHUNK = 16
/** Chunk statements kept (shapes x sizes); the cache starts again when full. */
const MAX_STATEMENTS = 64

const CONFLICT = 'ON CONFLICT (bank_account_id, import_ref) DO NOTHING'

type Value = string | number | null

function columnValue(row: NewTransactionRow, column: (typeof TX_COLUMNS)[number]): Value {
  return ((row as Record<string, unknown>)[column] ?? null) as Value
}

export class TransactionInserter {
  private readonly single: BetterSqlite3.Statement
  private readonly chunks = new Map<string, BetterSqlite3.Statement>()
  /** One row's values, reused (the statement copies them when it binds). */
  private readonly rowValues: Value[] = new Array(TX_COLUMNS.length)

  constructor(private readonly raw: BetterSqlite3.Database) {
    this.single = raw.prepare(
      `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) VALUES (${TX_COLUMNS.map(() => '?').join(', ')}) ${CONFLICT}`,
    )
  }

  /** Insert `rows` (inside the caller's transaction); the ids of those inserted. */
  insert(rows: NewTransactionRow[]): Set<string> {
    const inserted = new Set<string>()
    let i = 0
    for (; rows.length - i >= MIN_CHUNK; i += CHUNK) this.insertChunk(rows.slice(i, i + CHUNK), inserted)
    for (; i < rows.length; i++) {
      for (let c = 0; c < TX_COLUMNS.length; c++) this.rowValues[c] = columnValue(rows[i], TX_COLUMNS[c])
      if (this.single.run(this.rowValues).changes === 1) inserted.add(rows[i].id)
    }
    return inserted
  }

  private insertChunk(rows: NewTransactionRow[], inserted: Set<string>): void {
    const first = rows[0]
    // A column is shared when every row of the chunk holds the same value in it; never the id.
    const shared: boolean[] = TX_COLUMNS.map((column) => {
      if (column === 'id') return false
      const v = columnValue(first, column)
      for (let r = 1; r < rows.length; r++) if (columnValue(rows[r], column) !== v) return false
      return true
    })
    const varying = TX_COLUMNS.filter((_, c) => !shared[c])
    const values: Value[] = []
    for (let c = 0; c < TX_COLUMNS.length; c++) if (shared[c]) values.push(columnValue(first, TX_COLUMNS[c]))
    for (const row of rows) for (const column of varying) values.push(columnValue(row, column))
    const ids = this.statement(shared, varying.length, rows.length).all(values) as string[]
    for (const id of ids) inserted.add(id)
  }

  private statement(shared: boolean[], varying: number, rows: number): BetterSqlite3.Statement {
    const key = `${shared.map((s) => (s ? 1 : 0)).join('')}:${rows}`
    let stmt = this.chunks.get(key)
    if (stmt) return stmt
    let k = 0
    const select = TX_COLUMNS.map((_, c) => (shared[c] ? '?' : `column${++k}`)).join(', ')
    const tuple = `(${new Array(varying).fill('?').join(', ')})`
    const sql = `INSERT INTO transactions (${TX_COLUMNS.join(', ')}) SELECT ${select} FROM (VALUES ${new Array(rows).fill(tuple).join(', ')}) WHERE true ${CONFLICT} RETURNING id`
    stmt = this.raw.prepare(sql).pluck()
    if (this.chunks.size >= MAX_STATEMENTS) this.chunks.clear()
    this.chunks.set(key, stmt)
    return stmt
  }
}
