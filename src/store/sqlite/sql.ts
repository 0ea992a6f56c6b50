/** What SQLite can do and writes its own way (DialectSql in ../store.ts). */
import { type RawBuilder, sql } from 'kysely'
import type { DialectSql } from '../dialect-adapter.js'
import { EVENT_COLUMNS } from '../events.js'
import { keyWithCreatorSql } from '../queries.js'

/** A key by its hash with its creator as they are now (the hot path of every key's request). */
export const SQLITE_KEY_WITH_CREATOR = keyWithCreatorSql('= ?')

/** The SQL of a prepared SQLite insert of one event (named parameters, as better-sqlite3 binds an object). */
export const SQLITE_INSERT_EVENT = `INSERT INTO events (${EVENT_COLUMNS}) VALUES (@id, @company_id, @type, @object_id, @actor, @created_at, @data, @packed_ids)`

export const sqliteSql: DialectSql = {
  // Writers take turns (BEGIN IMMEDIATE): what a write transaction reads cannot change under it.
  rowLocks: false,
  // LIKE ignores the case of ASCII letters already.
  likeIgnoringCase: (text: RawBuilder<unknown>, pattern: string) => sql<boolean>`${text} LIKE ${pattern} ESCAPE '\\'`,
  // Ids are stored as 16 bytes; hex() writes them in upper case.
  idEndsWith: (hex: string) => sql<boolean>`hex(transactions.id) LIKE ${`%${hex.toUpperCase()}`}`,
  indexedBy: (index: string) => sql`INDEXED BY ${sql.id(index)}`,
  // The list as JSON text: SQLite's json_each reads it back as rows, each looked up through the index.
  inTexts: (column: string, texts: readonly string[]) =>
    sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(texts)}))`,
  idText,
}

/** The id's 16 bytes as its text, made by the query: no Buffer and hex string a row in JavaScript. */
function idText(): RawBuilder<string> {
  const hex = sql`hex("transactions"."id")`
  const part = (from: number, n?: number) =>
    n === undefined ? sql`substr(${hex}, ${sql.lit(from)})` : sql`substr(${hex}, ${sql.lit(from)}, ${sql.lit(n)})`
  return sql<string>`lower(${part(1, 8)} || '-' || ${part(9, 4)} || '-' || ${part(13, 4)} || '-' || ${part(17, 4)} || '-' || ${part(21)})`
}
