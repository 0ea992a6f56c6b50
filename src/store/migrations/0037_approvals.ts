/**
 * 0037 adds approval policies and proposals (docs/people.md, "Approval policies"): a company's
 * policy (which steps need a second person) and each proposal, its request, its effect and state.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('approval_policies')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('require', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('proposals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('effect', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('proposed_by', 'text', (c) => c.notNull())
    .addColumn('proposer_user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('reason', 'text')
    .addColumn('result', 'text')
    .execute()
  await db.schema.createIndex('proposals_company').on('proposals').columns(['company_id', 'state', 'created_at']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('proposals').execute()
  await db.schema.dropTable('approval_policies').execute()
}
