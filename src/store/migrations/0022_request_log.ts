/**
 * 0022 gives each usage record what `finctl logs tail` shows: the request id the answer carried
 * (X-Request-Id) and the path as requested (`endpoint` is the route template). Null on records made
 * before. The index on (company_id, id) serves the log's cursor: a company's records after an id.
 */
import type { AnyDb } from './common.js'

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_requests').addColumn('request_id', 'text').execute()
  await db.schema.alterTable('api_requests').addColumn('path', 'text').execute()
  await db.schema.createIndex('api_requests_company_id').on('api_requests').columns(['company_id', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('api_requests_company_id').execute()
  await db.schema.alterTable('api_requests').dropColumn('path').execute()
  await db.schema.alterTable('api_requests').dropColumn('request_id').execute()
}
