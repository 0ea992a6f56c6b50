/**
 * 0058 keeps each company's chart of accounts for the exports (docs/exporting.md, "A chart of
 * accounts"): the accounts map file `finctl export map set` stored, as JSON, with its SHA-256 (a
 * close records which map its DATEV, SIE or SAF-T file was written with).
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('export_accounts_maps')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('map', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('export_accounts_maps').execute()
}
