/**
 * 0045 records with a review batch which shape of the create request its pending rows were checked
 * against and stored in (CREATE_REQUEST_SHAPE): an apply by a build of the same shape lands them
 * without parsing each again. Null (batches staged before it): every row is parsed again at apply.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('import_reviews').addColumn('checked_shape', 'integer').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('import_reviews').dropColumn('checked_shape').execute()
}
