/**
 * 0031 keeps an event's `transaction_ids` packed in a column of bytes (src/kernel/packed-ids.ts)
 * instead of its JSON text: an import's event names every row it created, 39 bytes of text a row.
 * Events written before keep their ids in `data`; readers take either.
 */
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('events').addColumn('packed_ids', types(dialect).bytes).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('events').dropColumn('packed_ids').execute()
}
