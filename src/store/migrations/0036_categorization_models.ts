/**
 * 0036 keeps each company's last trained categorization model with the labels_version it was
 * trained at, so that a process (each `finctl tx import` is one) takes it instead of training
 * again when no label changed since (docs/performance.md, "Categorization").
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('categorization_models')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('labels_version', 'integer', (c) => c.notNull())
    .addColumn('trained_at', 'text', (c) => c.notNull())
    .addColumn('trained_on', 'integer', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('categorization_models').execute()
}
