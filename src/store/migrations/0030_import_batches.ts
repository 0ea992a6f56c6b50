/**
 * 0030 records imports as batches: each `tx import` and statement upload gets a row with the file
 * (name, SHA-256), the options it ran with, who ran it, its counts and its state. Transactions get no
 * batch column: a nullable column costs bytes on every row (docs/decisions.md, "Import batches").
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('import_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text')
    .addColumn('statement_id', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_sha256', 'text')
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('read_rows', 'integer')
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('existing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reconciled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rejects', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema.createIndex('import_batches_company').on('import_batches').columns(['company_id', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('import_batches').execute()
}
