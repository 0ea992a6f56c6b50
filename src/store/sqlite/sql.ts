/** What SQLite can do and writes its own way (DialectSql in ../store.ts). */
import { type RawBuilder, sql } from 'kysely'
import type { DialectSql } from '../store.js'
import { keyWithCreatorSql } from '../queries.js'

/** A key by its hash with its creator as they are now (the hot path of every key's request). */
export const SQLITE_KEY_WITH_CREATOR = keyWithCreatorSql('= ?')

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
}
