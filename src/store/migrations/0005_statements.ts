/**
 * 0005 adds bank statements (bank_statements, docs/api.md section 5) and transactions.statement_ref.
 *
 * The file itself is not kept, its sha256 is: the same file for the same account once only, while
 * its statement has not failed (a failed upload may be retried). `statement_ref` is the identity of
 * the statement line a transaction came from or was reconciled with (the bank's id, else date +
 * amount + description), unique per account: a line is never imported twice, whichever statement
 * brings it again.
 */
import { sql } from 'kysely'
import { types, type AnyDb, type Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect)
  await db.schema
    .createTable('bank_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('opening_balance', t.money)
    .addColumn('closing_balance', t.money)
    .addColumn('balance_check', 'text')
    .addColumn('line_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicate_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('matched_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute()
  await db.schema.createIndex('bank_statements_company').on('bank_statements').columns(['company_id', 'id']).execute()
  await db.schema.createIndex('bank_statements_account').on('bank_statements').columns(['bank_account_id', 'id']).execute()
  // Partial unique index (both dialects): a failed statement does not hold its file.
  await sql`CREATE UNIQUE INDEX bank_statements_file ON bank_statements (bank_account_id, file_sha256) WHERE status <> 'failed'`.execute(db)
  await db.schema.alterTable('transactions').addColumn('statement_ref', 'text').execute()
  // Partial: rows that came from no statement (every imported or typed-in row) add nothing to it.
  await db.schema
    .createIndex('transactions_statement_ref')
    .on('transactions')
    .columns(['bank_account_id', 'statement_ref'])
    .unique()
    .where(sql.ref('statement_ref'), 'is not', null)
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('transactions_statement_ref').execute()
  await db.schema.alterTable('transactions').dropColumn('statement_ref').execute()
  await db.schema.dropTable('bank_statements').execute()
}
