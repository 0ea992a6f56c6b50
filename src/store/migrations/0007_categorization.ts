/**
 * 0007 adds categorization: a company's ordered rules and its settings for the learned model.
 *
 * The settings (threshold, on/off) carry a version that every change of labelled data moves on, so
 * that each process knows when its in-memory model is behind the database.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('categorization_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('categorization_rules_company').on('categorization_rules').columns(['company_id', 'position']).execute()
  await db.schema
    .createTable('categorization_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('auto_categorize', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('threshold', 'real', (c) => c.notNull().defaultTo(0.9))
    .addColumn('labels_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('categorization_settings').execute()
  await db.schema.dropTable('categorization_rules').execute()
}
