/**
 * 0009 adds transactions.created_by and created_via: who created a transaction, and how.
 *
 * How is `create`, `batch_create` or `statement_import`, on the row itself instead of an audit entry
 * per row: an imported row wrote a second row and a second index entry that said nothing the
 * transaction row could not say. `history` puts the creation first from these columns; rows created
 * before this migration have NULL here and keep their creation entry in audit_entries. Deleting a
 * transaction writes its creation entry there (see deleteTransaction), so the audit trail of a
 * deleted transaction stays whole.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('created_by', 'text').execute()
  await db.schema.alterTable('transactions').addColumn('created_via', 'text').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('created_via').execute()
  await db.schema.alterTable('transactions').dropColumn('created_by').execute()
}
