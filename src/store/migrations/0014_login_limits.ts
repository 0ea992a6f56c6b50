/**
 * 0014 adds what slows password guessing and records it: login_counters, the attempts of the
 * current minute per subject (`email:<address>` or `address:<client>`), counted by one atomic
 * statement so that every process of a database shares them; and login_failures, one row per
 * refused password (the audit of failed logins), pruned after 90 days.
 */
import { types, type AnyDb, type Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect)
  await db.schema
    .createTable('login_counters')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('minute_window', t.money, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute()
  let failures = db.schema.createTable('login_failures')
  failures =
    dialect === 'postgres'
      ? failures.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : failures.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await failures
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('client_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('login_failures_created').on('login_failures').column('created_at').execute()
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('login_failures').execute()
  await db.schema.dropTable('login_counters').execute()
}
