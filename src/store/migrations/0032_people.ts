/**
 * 0032 adds people: a user may be disabled (kept, for the audit trail that names them), and
 * invitations, whose token is stored as its SHA-256 only, like an API key (docs/people.md).
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute()
  await db.schema
    .createTable('user_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('user_id', 'text')
    .execute()
  await db.schema.createIndex('user_invitations_company').on('user_invitations').columns(['company_id', 'created_at']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('user_invitations').execute()
  await db.schema.alterTable('users').dropColumn('disabled_at').execute()
}
