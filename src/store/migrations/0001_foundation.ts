/**
 * 0001 adds the foundation: settings, companies, users, api_keys, rate_limit_counters, api_requests, bank_accounts, transactions, idempotency_keys.
 *
 * The settings hold the installation's JWT secret, made here once.
 */
import { randomBytes } from 'node:crypto'
import { types, type AnyDb, type Dialect } from './common.js'

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect)
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()
  await db
    .insertInto('settings')
    .values({ key: 'jwt_secret', value: randomBytes(32).toString('base64url') })
    .execute()

  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base_currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
    .addColumn('rate_limit_per_day', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('usage_count', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('api_keys_company').on('api_keys').columns(['company_id', 'created_at']).execute()

  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key_id', 'text', (c) => c.primaryKey().references('api_keys.id'))
    .addColumn('minute_window', t.money, (c) => c.notNull())
    .addColumn('minute_count', 'integer', (c) => c.notNull())
    .addColumn('day_window', t.money, (c) => c.notNull())
    .addColumn('day_count', 'integer', (c) => c.notNull())
    .addColumn('allowed', 'integer', (c) => c.notNull())
    .execute()

  let requests = db.schema.createTable('api_requests')
  requests =
    dialect === 'postgres'
      ? requests.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : requests.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await requests
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_time_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('api_requests_key_time').on('api_requests').columns(['key_id', 'created_at']).execute()

  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('institution_name', 'text')
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('account_number_last4', 'text')
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('opening_balance', t.money, (c) => c.notNull())
    .addColumn('opening_balance_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('bank_accounts_company').on('bank_accounts').columns(['company_id', 'created_at']).execute()

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('bank_statement_id', 'text')
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('posted_date', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('original_description', 'text', (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('base_amount', t.money, (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('accounting_category', 'text')
    .addColumn('cash_flow_category', 'text')
    .addColumn('merchant_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_reconciled', 'integer', (c) => c.notNull())
    .addColumn('ai_confidence_score', 'real')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('transactions_company_date').on('transactions').columns(['company_id', 'transaction_date', 'id']).execute()
  await db.schema
    .createIndex('transactions_account_date')
    .on('transactions')
    .columns(['bank_account_id', 'transaction_date', 'id'])
    .execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner_id', 'idem_key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'transactions',
    'bank_accounts',
    'api_requests',
    'rate_limit_counters',
    'api_keys',
    'users',
    'companies',
    'settings',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
