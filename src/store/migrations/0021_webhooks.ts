/**
 * 0021 adds webhook endpoints: where a company's events are sent, signed with the endpoint's
 * secret. Each endpoint reads the outbox in order from `cursor` (the last event sequence it has
 * settled); the deliverer claims an endpoint with a lease (`lease_until`, `leased_by`) so that one
 * process sends at a time and another takes over once a killed one's lease runs out. `attempts`,
 * `next_attempt_at` and `failing_since` are the retries of the event at the head of its queue.
 * webhook_attempts records each try (its answer or error), kept for `webhooks get`.
 */
import type { AnyDb, Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('cursor', big, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('failing_since', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('leased_by', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_endpoints_company').on('webhook_endpoints').columns(['company_id', 'created_at']).execute()
  await db.schema.createIndex('webhook_endpoints_due').on('webhook_endpoints').columns(['status', 'next_attempt_at']).execute()
  let t = db.schema.createTable('webhook_attempts')
  t =
    dialect === 'postgres'
      ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await t
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('resend', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_attempts_endpoint').on('webhook_attempts').columns(['endpoint_id', 'id']).execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
