/**
 * 0044 keeps the original file of each statement upload, once per company and content: found by the
 * SHA-256 the statement records (bank_statements.file_sha256), so that a closed month's pack can hold
 * the files its statements were read from. Statements uploaded before it have none.
 */
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('statement_files')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', types(dialect).bytes, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('statement_files_pk', ['company_id', 'sha256'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('statement_files').execute()
}
