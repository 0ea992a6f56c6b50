/** What PostgreSQL can do and writes its own way (DialectSql in ../store.ts). */
import { type RawBuilder, sql } from 'kysely'
import type { DialectSql } from '../dialect-adapter.js'

export const postgresSql: DialectSql = {
  rowLocks: true,
  likeIgnoringCase: (text: RawBuilder<unknown>, pattern: string) => sql<boolean>`${text} ILIKE ${pattern} ESCAPE '\\'`,
  // Ids are uuid; their text form has dashes.
  idEndsWith: (hex: string) => sql<boolean>`replace(transactions.id::text, '-', '') LIKE ${`%${hex}`}`,
  // Its planner picks the partial index from the WHERE clause by itself.
  indexedBy: () => sql``,
  // node-postgres sends a JavaScript array as one array parameter.
  inTexts: (column: string, texts: readonly string[]) => sql<boolean>`${sql.ref(column)} = any(${[...texts]}::text[])`,
  // A uuid reads as its text already.
  idText: () => sql<string>`"transactions"."id"::text`,
}
