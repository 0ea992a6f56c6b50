/**
 * Stores for the contract tests in this folder, opened directly (no API in between): a SQLite file in
 * a temporary folder, or a PostgreSQL schema of its own (FINCTL_TEST_DATABASE_URL; the harness's rule
 * applies: skipped with one line when it does not answer, a failed run under CI=true). Plus the few
 * rows the hot paths need, written straight into the tables.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { migrations } from '../../src/store/migrations/index.js'
import { openStore, splitSchema } from '../../src/store/open-store.js'
import { createSchema, OwnSchemaDialect } from '../../src/store/postgres/store.js'
import type { Db } from '../../src/store/schema.js'
import { nextKey } from '../../src/store/keys.js'
import type { NewTransactionRow, TransactionRow } from '../../src/store/transaction-codec.js'
import type { Store } from '../../src/store/store.js'
import { freshPostgres, type StoreKind } from '../helpers/harness.js'

export { STORES, type StoreKind } from '../helpers/harness.js'

/** Where a test database lives, and how to remove it (the folder, or the schema) once closed. */
export interface TestDatabase {
  kind: StoreKind
  /** What openStore takes: a SQLite file path or a postgres:// URL with `?schema=`. */
  target: string
  open(): Promise<Store>
  remove(): Promise<void>
}

export async function freshDatabase(kind: StoreKind): Promise<TestDatabase> {
  const open = (target: string) => () => openStore(target, { poolSize: 4 })
  if (kind === 'postgres') {
    const pg = await freshPostgres()
    return { kind, target: pg.url, open: open(pg.url), remove: pg.drop }
  }
  const dir = mkdtempSync(join(tmpdir(), 'finctl-store-'))
  const target = join(dir, 'finctl.db')
  return { kind, target, open: open(target), remove: async () => rmSync(dir, { recursive: true, force: true }) }
}

export interface Tenant {
  companyId: string
  companyKey: number
  accountId: string
  accountKey: number
  keyId: string
  keyHash: string
}

const NOW = '2026-11-20T10:00:00.000Z'

/** A company with one bank account and one API key (limits 60/minute, 1,000/day). */
export async function seedTenant(store: Store, name = 'Acme'): Promise<Tenant> {
  const companyId = randomUUID()
  const companyKey = await store.writeTransaction((trx) => nextKey(trx, 'companies'))
  await store.db.insertInto('companies').values({ id: companyId, key: companyKey, name, base_currency: 'USD', created_at: NOW }).execute()
  const accountId = await addAccount(store, companyId)
  const keyId = await addKey(store, companyId)
  const row = await store.db.selectFrom('api_keys').select('key_hash').where('id', '=', keyId).executeTakeFirstOrThrow()
  return { companyId, companyKey, accountId, accountKey: await accountKey(store, accountId), keyId, keyHash: row.key_hash }
}

/** The key of a bank account (what its transactions are stored under). */
export async function accountKey(store: Store, accountId: string): Promise<number> {
  const r = await store.db.selectFrom('bank_accounts').select('key').where('id', '=', accountId).executeTakeFirstOrThrow()
  return Number(r.key)
}

export async function addAccount(store: Store, companyId: string, over: { name?: string; opening_balance?: number } = {}): Promise<string> {
  const id = randomUUID()
  const key = await store.writeTransaction((trx) => nextKey(trx, 'bank_accounts'))
  await store.db
    .insertInto('bank_accounts')
    .values({
      id,
      key,
      company_id: companyId,
      name: over.name ?? 'Operating',
      institution_name: 'First Bank',
      account_type: 'checking',
      account_number_last4: '4321',
      currency_code: 'USD',
      status: 'active',
      opening_balance: over.opening_balance ?? 125_000,
      // Before every date the tests write: no transaction may be dated before it.
      opening_balance_date: '2000-01-01',
      created_at: NOW,
      updated_at: NOW,
    })
    .execute()
  return id
}

export async function addKey(store: Store, companyId: string, over: { perMinute?: number; perDay?: number } = {}): Promise<string> {
  const id = randomUUID()
  await store.db
    .insertInto('api_keys')
    .values({
      id,
      company_id: companyId,
      name: 'ci',
      key_prefix: `fk_${id.slice(0, 6)}`,
      key_hash: `hash-${id}`,
      scopes: '["read","transactions"]',
      description: 'contract test',
      rate_limit_per_minute: over.perMinute ?? 60,
      rate_limit_per_day: over.perDay ?? 1000,
      is_active: 1,
      expires_at: null,
      revoked_at: null,
      created_at: NOW,
      created_by: 'user:owner',
      usage_count: 0,
      last_used_at: null,
    })
    .execute()
  return id
}

/** A transaction row as the core would insert it (every column the hot path writes). */
export function txRow(
  t: Pick<Tenant, 'companyKey' | 'accountKey' | 'accountId'>,
  over: Partial<NewTransactionRow> = {},
): NewTransactionRow {
  return {
    id: randomUUID(),
    company_key: t.companyKey,
    account_key: t.accountKey,
    bank_account_id: t.accountId,
    bank_statement_id: null,
    transaction_date: '2026-11-02',
    posted_date: '2026-11-03',
    description: 'Office chairs',
    original_description: 'OFFICE CHAIRS  #123',
    amount: -34_990,
    currency_code: 'USD',
    exchange_rate: '1',
    base_amount: -34_990,
    category: null,
    accounting_category: null,
    cash_flow_category: null,
    merchant_name: null,
    status: 'posted',
    is_reconciled: 0,
    ai_confidence_score: null,
    tags: '[]',
    created_at: NOW,
    updated_at: NOW,
    import_ref: null,
    created_by: 'key:contract',
    created_via: 'batch_create',
    exchange_rate_date: null,
    ...over,
  }
}

/** The indexes of transactions (all but the primary key), sorted. */
export const TRANSACTION_INDEXES = [
  'transactions_account_date',
  'transactions_amount',
  'transactions_company_category',
  'transactions_company_created',
  'transactions_company_date',
  'transactions_company_status_date',
  'transactions_id',
  'transactions_import_ref',
  'transactions_report_account',
  'transactions_report_company',
  'transactions_statement',
  'transactions_statement_ref',
]

/** The ids of the given transactions that exist, sorted. */
export async function existingIds(store: Store, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const found: string[] = []
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await store.db
      .selectFrom('transactions')
      .select('id')
      .where('id', 'in', store.tx.idParams(ids.slice(i, i + 500)))
      .execute()
    found.push(...rows.map((r) => store.tx.idText(r.id)))
  }
  return found.sort()
}

/** The given transactions as the domain reads them (decoded), by id. */
export async function storedTransactions(store: Store, ids: string[]): Promise<Map<string, TransactionRow>> {
  const out = new Map<string, TransactionRow>()
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await store.db
      .selectFrom('transactions')
      .selectAll()
      .where('id', 'in', store.tx.idParams(ids.slice(i, i + 500)))
      .execute()
    for (const r of await store.tx.decode(store.db, rows)) out.set(r.id, r)
  }
  return out
}

/** Another account of the tenant's company, as a tenant of its own (its id and key). */
export async function otherAccount(store: Store, t: Tenant): Promise<Tenant> {
  const accountId = await addAccount(store, t.companyId)
  return { ...t, accountId, accountKey: await accountKey(store, accountId) }
}

/** The names of the migrations a database has run, in order, with when each ran. */
export async function appliedMigrations(store: Store): Promise<Array<{ name: string; timestamp: string }>> {
  const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name`.execute(
    store.db,
  )
  return rows
}

/**
 * As a database of an earlier release: every migration after `last` taken back (its `down`, newest
 * first) and forgotten, and those from `forgetFrom` on (default: after `last`) forgotten too, as if
 * killed before the migrator recorded them; SQLite's user_version (the count it trusts) follows.
 */
export async function takeBackAfter(store: Store, last: string, o: { forgetFrom?: string } = {}): Promise<void> {
  const all = migrations(store.dialect)
  const names = Object.keys(all)
  const later = names.slice(names.indexOf(last) + 1)
  for (const name of later.reverse()) await all[name].down!(store.db)
  const forgetFrom = o.forgetFrom ?? names[names.indexOf(last) + 1]
  await store.db
    .deleteFrom('kysely_migration' as never)
    .where('name' as never, '>=', forgetFrom as never)
    .execute()
  if (store.dialect === 'sqlite') await sql.raw(`PRAGMA user_version = ${names.indexOf(forgetFrom)}`).execute(store.db)
}

/** Table and index names of the store's database (its schema on PostgreSQL), sorted, without the engine's own. */
export async function schemaObjects(store: Store): Promise<{ tables: string[]; indexes: string[] }> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{
      type: string
      name: string
    }>`select type, name from sqlite_schema where type in ('table', 'index') and name not like 'sqlite_%'`.execute(store.db)
    const names = (type: string) =>
      rows
        .filter((r) => r.type === type)
        .map((r) => r.name)
        .sort()
    return { tables: names('table'), indexes: names('index') }
  }
  const tables = await sql<{
    name: string
  }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(store.db)
  // Indexes that back a primary key or a UNIQUE column are named by PostgreSQL: leave them out, as sqlite_autoindex_* are.
  const indexes = await sql<{ name: string }>`
    select i.indexname as name from pg_indexes i
    where i.schemaname = current_schema()
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = current_schema()::regnamespace)`.execute(
    store.db,
  )
  return { tables: tables.rows.map((r) => r.name).sort(), indexes: indexes.rows.map((r) => r.name).sort() }
}

/** A kysely of the test database with no store around it (no migrations run): to make a database as an older release did. */
export async function rawKysely(d: TestDatabase): Promise<{ db: Kysely<Db>; schema?: string }> {
  if (d.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3')
    return { db: new Kysely<Db>({ dialect: new SqliteDialect({ database: new Database(d.target) }) }) }
  }
  const { default: pg } = await import('pg')
  const { url, schema } = splitSchema(d.target)
  if (!schema) throw new Error(`${d.target}: a test database names its schema`)
  await createSchema(url, schema)
  const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` })
  // The store's dialect: kysely's own reads every schema's columns when it migrates, and failed
  // while another worker's migration dropped one (`column "company_id" ... does not exist`).
  return { db: new Kysely<Db>({ dialect: new OwnSchemaDialect({ pool }, schema) }), schema }
}
