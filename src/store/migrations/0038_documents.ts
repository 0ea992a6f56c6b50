/**
 * 0038 adds documents (receipts, invoices, contracts): each file once per company, found by the
 * SHA-256 of its bytes, the bytes kept in the database itself so that every `finctl serve` on one
 * PostgreSQL sees them; document_links ties a document to transactions (who linked it, when).
 */
import { type AnyDb, type Dialect, types } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content', types(dialect).bytes, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  // One document per content and company: a second upload of the same bytes finds the first.
  await db.schema.createIndex('documents_company_sha256').on('documents').columns(['company_id', 'sha256']).unique().execute()
  await db.schema.createIndex('documents_company').on('documents').columns(['company_id', 'created_at']).execute()
  await db.schema
    .createTable('document_links')
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('linked_by', 'text', (c) => c.notNull())
    .addColumn('linked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_links_pk', ['document_id', 'transaction_id'])
    .execute()
  await db.schema.createIndex('document_links_transaction').on('document_links').columns(['company_id', 'transaction_id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('document_links').execute()
  await db.schema.dropTable('documents').execute()
}
