/**
 * 0003 adds transactions.import_ref, unique per account: exactly-once imports.
 *
 * A row's identity (from its content and its occurrence in the file) is kept on the transaction,
 * unique per account, so the same row can never be created twice.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('import_ref', 'text').execute()
  await db.schema.createIndex('transactions_import_ref').on('transactions').columns(['bank_account_id', 'import_ref']).unique().execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('transactions_import_ref').execute()
  await db.schema.alterTable('transactions').dropColumn('import_ref').execute()
}
