/**
 * 0033 records a batch's revert: who reverted it and when (its state becomes `reverted`;
 * docs/importing-csv.md, "Revert a batch").
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('import_batches').addColumn('reverted_at', 'text').execute()
  await db.schema.alterTable('import_batches').addColumn('reverted_by', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('import_batches').dropColumn('reverted_by').execute()
  await db.schema.alterTable('import_batches').dropColumn('reverted_at').execute()
}
