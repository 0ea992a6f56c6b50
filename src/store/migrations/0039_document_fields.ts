/**
 * 0039 keeps what was read of a document (docs/documents.md, "Matching"): its amount (integer minor
 * units of its currency), currency, date and merchant, where they were read from, and when, so that
 * suggesting links does not parse the file again. `fields_read_at` NULL: not read yet (a document
 * added before 0039 is read the first time it is matched).
 */
import { type AnyDb, type Dialect, types } from './common.js'

const COLUMNS = ['amount_minor', 'currency', 'document_date', 'merchant', 'fields_source', 'fields_read_at'] as const

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('documents').addColumn('amount_minor', types(dialect).money).execute()
  for (const c of COLUMNS.slice(1)) await db.schema.alterTable('documents').addColumn(c, 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const c of COLUMNS) await db.schema.alterTable('documents').dropColumn(c).execute()
}
