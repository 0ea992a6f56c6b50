/**
 * 0040 adds what the auditor's pack and the close check need (docs/closing.md): each company's
 * Ed25519 key that signs a closed month's pack (created on the first pack; the private key never
 * leaves the store), and the close's document policy (a threshold per currency, and whether `close`
 * refuses while a transaction above it has no document).
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('company_signing_keys')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('close_policies')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('document_thresholds', 'text', (c) => c.notNull())
    .addColumn('require_documents', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('close_policies').execute()
  await db.schema.dropTable('company_signing_keys').execute()
}
