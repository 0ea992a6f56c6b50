/**
 * 0041 keeps the file of a review import (`tx import --review`) beside its pending rows, in parts
 * as the client sends them, so that `imports remap` can read it again with another mapping; the
 * parts go with the batch's rows when it is applied, discarded or expires.
 */
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('import_review_files')
    .addColumn('batch_id', 'text', (c) => c.notNull().references('import_batches.id').onDelete('cascade'))
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('content', types(dialect).bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('import_review_files_pk', ['batch_id', 'part'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('import_review_files').execute()
}
