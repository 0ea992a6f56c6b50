/**
 * 0060 is for agents (docs/agents.md): a key marked as an agent's (`api_keys.agent`, whose every write
 * is a proposal), the tool an MCP client called beside each request it made (`api_requests.via`,
 * shown by `finctl logs tail`), and notes on transactions (`transaction_notes`), which an agent proposes
 * and a person writes or approves.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('agent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('api_requests').addColumn('via', 'text').execute()
  await db.schema
    .createTable('transaction_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('approved_by', 'text')
    .addColumn('proposal_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('transaction_notes_tx')
    .on('transaction_notes')
    .columns(['company_id', 'transaction_id', 'created_at'])
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('transaction_notes').execute()
  await db.schema.alterTable('api_requests').dropColumn('via').execute()
  await db.schema.alterTable('api_keys').dropColumn('agent').execute()
}
