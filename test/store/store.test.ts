/**
 * The Store itself (src/store/store.ts) on every dialect, without the API: what it says it is,
 * writeTransaction, the migrations an opening runs, and close.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { migrate, migrations } from '../../src/store/migrations/index.js'
import type { Store } from '../../src/store/store.js'
import {
  appliedMigrations,
  freshDatabase,
  rawKysely,
  schemaObjects,
  seedTenant,
  STORES,
  TRANSACTION_INDEXES,
  txRow,
  type StoreKind,
  type TestDatabase,
} from './fixtures.js'

/** Every migration by the name databases record it under: renaming or reordering one breaks every existing database. */
const MIGRATION_NAMES = [
  '0001_foundation',
  '0002_transactions_complete',
  '0003_import_refs',
  '0004_reports',
  '0005_statements',
  '0006_partial_indexes',
  '0007_categorization',
  '0008_amount_index',
  '0009_creation_columns',
  '0010_exchange_rates',
  '0011_compact_transactions',
  '0012_balance_index',
  '0013_balance_currency',
  '0014_login_limits',
  '0015_statement_worker',
  '0016_period_locks',
  '0017_audit_chain',
  '0018_report_totals',
  '0019_key_rolling',
  '0020_events',
  '0021_webhooks',
  '0022_request_log',
  '0024_close_records',
  '0025_period_lock_triggers',
  '0026_close_contents',
  '0027_opening_rates',
  '0028_creation_entries',
  '0029_key_usage_totals',
  '0030_import_batches',
  '0031_event_packed_ids',
  '0032_people',
  '0033_import_reverts',
  '0034_import_reviews',
  '0035_key_usage_periods',
  '0036_categorization_models',
  '0037_approvals',
  '0038_documents',
  '0039_document_fields',
  '0040_close_packs',
  '0041_import_review_files',
  '0042_people_chained',
  '0043_usage_newest',
  '0044_statement_files',
  '0045_review_checked',
  '0046_pending_rows_keyed',
  '0048_close_names',
  '0049_lock_dates_chained',
  '0055_budgets',
  '0056_recurring_items',
  '0058_export_accounts_maps',
  '0060_agents',
]

const TABLES = [
  'actors',
  'api_key_usage',
  'api_key_usage_periods',
  'api_keys',
  'api_requests',
  'approval_policies',
  'audit_chain_heads',
  'audit_entries',
  'bank_accounts',
  'bank_statements',
  'budget_versions',
  'budgets',
  'categorization_models',
  'categorization_rules',
  'categorization_settings',
  'close_exports',
  'close_policies',
  'close_rows',
  'companies',
  'company_signing_keys',
  'document_links',
  'documents',
  'events',
  'exchange_rates',
  'export_accounts_maps',
  'idempotency_keys',
  'import_batches',
  'import_pending_rows',
  'import_review_files',
  'import_reviews',
  'kysely_migration',
  'kysely_migration_lock',
  'login_counters',
  'login_failures',
  'period_closes',
  'proposals',
  'rate_limit_counters',
  'recurring_items',
  'report_day_flows',
  'report_month_groups',
  'settings',
  'statement_files',
  'transaction_notes',
  'transactions',
  'user_invitations',
  'users',
  'webhook_attempts',
  'webhook_endpoints',
]

/** The indexes the migrations leave (the same on both dialects since 0011). */
function indexes(_kind: StoreKind): string[] {
  return [
    'api_keys_company',
    'api_requests_company_id',
    'api_requests_key_seq',
    'api_requests_key_time',
    'audit_entries_company',
    'audit_entries_company_time',
    'audit_entries_transaction',
    'bank_accounts_company',
    'bank_accounts_key',
    'bank_statements_account',
    'bank_statements_company',
    'bank_statements_file',
    'budgets_company',
    'budgets_live',
    'categorization_rules_company',
    'close_exports_close',
    'companies_key',
    'document_links_transaction',
    'documents_company',
    'documents_company_sha256',
    'events_company_seq',
    'idempotency_keys_created',
    'import_batches_company',
    'import_reviews_expiry',
    'login_failures_created',
    'period_closes_company',
    'proposals_company',
    'recurring_items_company',
    'report_day_flows_account',
    'report_month_groups_account',
    'transaction_notes_tx',
    'user_invitations_company',
    'webhook_attempts_endpoint',
    'webhook_endpoints_company',
    'webhook_endpoints_due',
    ...TRANSACTION_INDEXES,
  ].sort()
}

describe.each(STORES)('store on %s', (kind) => {
  let database: TestDatabase
  let store: Store

  beforeAll(async () => {
    database = await freshDatabase(kind)
    store = await database.open()
  })
  afterAll(async () => {
    await store?.close()
    await database?.remove()
  })

  it('says which dialect it is and where its data lives, without a password', async () => {
    expect(store.dialect).toBe(kind)
    if (kind === 'sqlite') expect(store.location).toBe(database.target)
    else {
      // The server's URL without the schema parameter (pg never sees it), its password hidden.
      const u = new URL(database.target)
      u.searchParams.delete('schema')
      if (u.password) u.password = '***'
      expect(store.location).toBe(u.toString())
    }
  })

  it('syncs every COMMIT: an answered write survives a power failure (docs/decisions.md, "Durability")', async () => {
    if (kind === 'sqlite') {
      // FULL (2) in WAL mode syncs the WAL at each COMMIT; NORMAL (1) only at a checkpoint.
      const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(store.db)
      expect(rows[0].synchronous).toBe(2)
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db)
      expect(mode.rows[0].journal_mode).toBe('wal')
    } else {
      const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(store.db)
      expect(['on', 'remote_write', 'remote_apply']).toContain(rows[0].synchronous_commit)
    }
  })

  describe('writeTransaction', () => {
    const settingValue = async (key: string) =>
      (await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value

    it("commits what fn wrote and returns fn's value", async () => {
      const key = `commit-${randomUUID()}`
      const result = await store.writeTransaction(async (trx) => {
        await trx.insertInto('settings').values({ key, value: 'one' }).execute()
        await trx.updateTable('settings').set({ value: 'two' }).where('key', '=', key).execute()
        // Inside, trx sees its own writes.
        return (await trx.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value
      })
      expect(result).toBe('two')
      expect(await settingValue(key)).toBe('two')
    })

    it('rolls back everything fn wrote when it throws, and rejects with its error', async () => {
      const t = await seedTenant(store)
      const key = `rollback-${randomUUID()}`
      const row = txRow(t)
      await store.tx.prepareActors([row])
      const boom = new Error('changed my mind')
      await expect(
        store.writeTransaction(async (trx) => {
          await trx.insertInto('settings').values({ key, value: 'x' }).execute()
          await store.tx.insert(trx, [row])
          await trx.updateTable('companies').set({ name: 'Renamed' }).where('id', '=', t.companyId).execute()
          throw boom
        }),
      ).rejects.toBe(boom)
      expect(await settingValue(key)).toBeUndefined()
      expect(
        await store.db.selectFrom('transactions').select('id').where('id', '=', store.tx.idParam(row.id)!).executeTakeFirst(),
      ).toBeUndefined()
      expect((await store.db.selectFrom('companies').select('name').where('id', '=', t.companyId).executeTakeFirstOrThrow()).name).toBe(
        'Acme',
      )
    })

    it('rolls back when a statement fails, and the store goes on working', async () => {
      const key = `failed-${randomUUID()}`
      await expect(
        store.writeTransaction(async (trx) => {
          await trx.insertInto('settings').values({ key, value: 'x' }).execute()
          await trx.insertInto('settings').values({ key, value: 'again' }).execute() // primary key taken
        }),
      ).rejects.toThrow()
      expect(await settingValue(key)).toBeUndefined()
      await store.writeTransaction((trx) => trx.insertInto('settings').values({ key, value: 'later' }).execute())
      expect(await settingValue(key)).toBe('later')
    })

    it('concurrent read-modify-write transactions lose no update (rows read for update on PostgreSQL)', async () => {
      const key = `counter-${randomUUID()}`
      await store.db.insertInto('settings').values({ key, value: '0' }).execute()
      const increment = () =>
        store.writeTransaction(async (trx) => {
          let q = trx.selectFrom('settings').select('value').where('key', '=', key)
          if (store.dialect === 'postgres') q = q.forUpdate()
          const { value } = await q.executeTakeFirstOrThrow()
          await new Promise((r) => setTimeout(r, 2)) // let the others run in between
          await trx
            .updateTable('settings')
            .set({ value: String(Number(value) + 1) })
            .where('key', '=', key)
            .execute()
        })
      await Promise.all(Array.from({ length: 12 }, increment))
      expect(await settingValue(key)).toBe('12')
    })
  })

  describe('migrations', () => {
    const opened: Array<{ database: TestDatabase; store?: Store }> = []
    const fresh = async () => {
      const d = { database: await freshDatabase(kind) } as { database: TestDatabase; store?: Store }
      opened.push(d)
      return d
    }
    afterEach(async () => {
      for (const d of opened.splice(0)) {
        await d.store?.close().catch(() => {})
        await d.database.remove()
      }
    })

    it('a fresh database reaches the latest migration: every migration by name, in order, and the schema they make', async () => {
      const d = await fresh()
      const s = (d.store = await d.database.open())
      expect(Object.keys(migrations(kind))).toEqual(MIGRATION_NAMES)
      expect((await appliedMigrations(s)).map((m) => m.name)).toEqual(MIGRATION_NAMES)
      expect(await schemaObjects(s)).toEqual({ tables: TABLES, indexes: indexes(kind) })
      if (kind === 'sqlite')
        expect((await sql<{ user_version: number }>`pragma user_version`.execute(s.db)).rows[0].user_version).toBe(MIGRATION_NAMES.length)
      // The latest columns are there (0003, 0005, 0009, 0010, 0011), and the secret 0001 made.
      const t = await seedTenant(s)
      const row = txRow(t, {
        import_ref: 'r',
        statement_ref: 's',
        created_by: 'key:k',
        created_via: 'create',
        exchange_rate_date: '2026-10-30',
      })
      await s.tx.actorKey('key:k')
      await s.tx.insert(s.db, [row])
      const stored = await s.db.selectFrom('transactions').selectAll().where('id', '=', s.tx.idParam(row.id)!).executeTakeFirstOrThrow()
      expect(stored).toMatchObject({
        company_key: t.companyKey,
        account_key: t.accountKey,
        import_ref: 'r',
        statement_ref: 's',
        created_by: await s.tx.actorKey('key:k'),
        created_via: 1,
        exchange_rate_date: '2026-10-30',
      })
      // The UUID in 16 bytes on SQLite, a uuid on PostgreSQL.
      expect(kind === 'sqlite' ? Buffer.from(stored.id as Uint8Array).length : stored.id).toBe(kind === 'sqlite' ? 16 : row.id)
      // Columns equal to another are stored as NULL (posted_date differs in txRow; updated_at does not).
      expect({ posted: stored.posted_date, updated: stored.updated_at }).toEqual({ posted: row.posted_date, updated: null })
      const [back] = await s.tx.decode(s.db, [stored])
      expect({ ...back, seq: undefined }).toEqual({ ...row, seq: undefined })
      // 0010: one rate per company, currency and day; the text of the rate as written.
      const rate = {
        company_id: t.companyId,
        currency_code: 'EUR',
        rate_date: '2026-10-30',
        rate: '1.08230000001',
        source: 'ecb',
        created_at: 'x',
        updated_at: 'x',
      }
      await s.db.insertInto('exchange_rates').values(rate).execute()
      await expect(
        s.db
          .insertInto('exchange_rates')
          .values({ ...rate, rate: '2' })
          .execute(),
      ).rejects.toThrow()
      await s.db
        .insertInto('exchange_rates')
        .values({ ...rate, rate_date: '2026-10-31' })
        .execute()
      expect(
        await s.db
          .selectFrom('exchange_rates')
          .select(['rate_date', 'rate'])
          .where('company_id', '=', t.companyId)
          .orderBy('rate_date')
          .execute(),
      ).toEqual([
        { rate_date: '2026-10-30', rate: '1.08230000001' },
        { rate_date: '2026-10-31', rate: '1.08230000001' },
      ])
      const secret = await s.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()
      expect(secret.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    })

    it('opening again runs nothing: the same migrations with the same times, the same secret, the data kept', async () => {
      const d = await fresh()
      const first = await d.database.open()
      const before = await appliedMigrations(first)
      const secret = await first.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()
      const t = await seedTenant(first)
      await first.close()

      const s = (d.store = await d.database.open())
      expect(await appliedMigrations(s)).toEqual(before)
      expect(await s.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow()).toEqual(secret)
      expect(await s.db.selectFrom('companies').select('name').where('id', '=', t.companyId).executeTakeFirst()).toEqual({ name: 'Acme' })
      expect(await schemaObjects(s)).toEqual({ tables: TABLES, indexes: indexes(kind) })
    })

    // PostgreSQL only (schemas): defined for that store alone, not skipped for the other.
    if (kind === 'postgres')
      it("the migrator reads only the store's own schema, so another schema dropped meanwhile cannot fail it", async () => {
        const d = await fresh()
        const s = (d.store = await d.database.open())
        const other = await fresh()
        const o = (other.store = await other.database.open())
        const own = new URL(d.database.target).searchParams.get('schema')
        const tables = await s.db.introspection.getTables({ withInternalKyselyTables: true })
        expect(new Set(tables.map((x) => x.schema))).toEqual(new Set([own]))
        expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['kysely_migration', 'transactions']))
        // Another run drops its schemas while this store opens again: nothing of it is read.
        await o.close()
        other.store = undefined
        await Promise.all([
          other.database.remove(),
          (async () => {
            await s.close()
            d.store = await d.database.open()
          })(),
        ])
        expect((await appliedMigrations(d.store!)).map((m) => m.name)).toEqual(MIGRATION_NAMES)
      })

    it('a database made by an earlier release runs only the migrations it has not run, and keeps its data', async () => {
      const d = await fresh()
      // The release before 0009: the first eight migrations, run as that release ran them.
      const older = Object.fromEntries(Object.entries(migrations(kind)).slice(0, 8))
      const raw = await rawKysely(d.database)
      await migrate(raw.db, older, raw.schema)
      const companyId = randomUUID()
      // The companies table of release 0008, without today's key column.
      await (raw.db as any)
        .insertInto('companies')
        .values({ id: companyId, name: 'Old Co', base_currency: 'EUR', created_at: '2025-01-01T00:00:00.000Z' })
        .execute()
      const before = (
        await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name`.execute(raw.db)
      ).rows
      await raw.db.destroy()
      expect(before.map((m) => m.name)).toEqual(MIGRATION_NAMES.slice(0, 8))

      const s = (d.store = await d.database.open())
      const after = await appliedMigrations(s)
      expect(after.slice(0, 8)).toEqual(before)
      expect(after.map((m) => m.name)).toEqual(MIGRATION_NAMES)
      expect(await s.db.selectFrom('companies').select(['name', 'base_currency']).where('id', '=', companyId).executeTakeFirst()).toEqual({
        name: 'Old Co',
        base_currency: 'EUR',
      })
      expect(await schemaObjects(s)).toEqual({ tables: TABLES, indexes: indexes(kind) })
    })

    it('0046 keeps the pending rows a review staged before it, without the foreign key (and on SQLite in one tree)', async () => {
      const d = await fresh()
      const before = Object.fromEntries(Object.entries(migrations(kind)).filter(([name]) => name < '0046'))
      const raw = await rawKysely(d.database)
      await migrate(raw.db, before, raw.schema)
      const db = raw.db as any
      const companyId = randomUUID()
      const batch = randomUUID()
      await db.insertInto('companies').values({ id: companyId, key: 1, name: 'Co', base_currency: 'USD', created_at: 'x' }).execute()
      await db
        .insertInto('import_batches')
        .values({
          id: batch,
          company_id: companyId,
          kind: 'csv',
          file_name: 'f.csv',
          options: '{"review":true}',
          actor: 'key:k',
          state: 'pending',
          created_at: 'x',
        })
        .execute()
      await db.insertInto('import_reviews').values({ batch_id: batch, company_id: companyId, staged: 2, expires_at: 'x' }).execute()
      const rows = [
        { batch_id: batch, line: 3, body: '{"amount":"-1.00"}' },
        { batch_id: batch, line: 2, body: '{"amount":"2.50"}' },
      ]
      await db.insertInto('import_pending_rows').values(rows).execute()
      // Before 0046 a row of no review is refused by the foreign key.
      await expect(db.insertInto('import_pending_rows').values({ batch_id: randomUUID(), line: 1, body: '{}' }).execute()).rejects.toThrow()
      await raw.db.destroy()

      const s = (d.store = await d.database.open())
      expect((await appliedMigrations(s)).map((m) => m.name)).toEqual(MIGRATION_NAMES)
      expect(await s.db.selectFrom('import_pending_rows').selectAll().orderBy('line').execute()).toEqual([rows[1], rows[0]])
      // A (batch, line) staged again keeps its first row; no parent is looked up any more.
      await s.db
        .insertInto('import_pending_rows')
        .values({ ...rows[0], body: 'again' })
        .onConflict((oc) => oc.columns(['batch_id', 'line']).doNothing())
        .execute()
      await s.db.insertInto('import_pending_rows').values({ batch_id: randomUUID(), line: 1, body: '{}' }).execute()
      expect((await s.db.selectFrom('import_pending_rows').select('body').where('line', '=', 3).executeTakeFirstOrThrow()).body).toBe(
        rows[0].body,
      )
      if (kind === 'sqlite') {
        const made = await sql<{ sql: string }>`select sql from sqlite_master where name = 'import_pending_rows'`.execute(s.db)
        expect(made.rows[0].sql).toMatch(/WITHOUT ROWID$/)
      }
      expect(await schemaObjects(s)).toEqual({ tables: TABLES, indexes: indexes(kind) })
    })

    it('0049 chains the lock dates already there: the closes recorded, and a lock date set without one', async () => {
      const d = await fresh()
      const before = Object.fromEntries(Object.entries(migrations(kind)).filter(([name]) => name < '0049'))
      const raw = await rawKysely(d.database)
      await migrate(raw.db, before, raw.schema)
      const db = raw.db as any
      const [closed, bare, open] = [randomUUID(), randomUUID(), randomUUID()]
      await db
        .insertInto('companies')
        .values([
          { id: closed, key: 1, name: 'Closed', base_currency: 'USD', created_at: 'x', lock_date: '2026-02-28' },
          { id: bare, key: 2, name: 'Bare', base_currency: 'USD', created_at: 'x', lock_date: '2026-01-31' },
          { id: open, key: 3, name: 'Open', base_currency: 'USD', created_at: 'x', lock_date: null },
        ])
        .execute()
      const close = (period: string, action: string, lock: string, prev: string | null) => ({
        company_id: closed,
        period,
        action,
        lock_date: lock,
        previous_lock_date: prev,
        actor: 'user:u',
        reason: null,
        forced: 0,
        created_at: 'x',
      })
      await db
        .insertInto('period_closes')
        .values([close('2026-01', 'close', '2026-01-31', null), close('2026-02', 'close', '2026-02-28', '2026-01-31')])
        .execute()
      await raw.db.destroy()

      const s = (d.store = await d.database.open())
      const entries = await s.db
        .selectFrom('audit_entries')
        .select(['company_id', 'changes'])
        .where('action', '=', 'lock_date_changed')
        .orderBy('id')
        .execute()
      const lockOf = (id: string) => entries.filter((e) => e.company_id === id).map((e) => JSON.parse(e.changes).lock_date)
      expect([lockOf(closed), lockOf(bare), lockOf(open)]).toEqual([['2026-01-31', '2026-02-28'], ['2026-01-31'], []])
      for (const id of [closed, bare, open]) {
        const { verifyLockDate } = await import('../../src/store/lock-entries.js')
        expect(await verifyLockDate(s.db, id), id).toBeNull()
      }
    })
  })

  describe('close', () => {
    it('ends the connections: the store answers no more queries, and the data written before is there on the next opening', async () => {
      const d = await freshDatabase(kind)
      try {
        const s = await d.open()
        const t = await seedTenant(s)
        const row = txRow(t, { import_ref: 'before-close' })
        await s.hot.insertTransactions([row])
        await s.close()
        await expect(s.db.selectFrom('companies').selectAll().execute()).rejects.toThrow()
        const again = await d.open()
        try {
          const rows = await again.db
            .selectFrom('transactions')
            .select(['id', 'import_ref'])
            .where('company_key', '=', t.companyKey)
            .execute()
          expect(rows.map((r) => ({ id: again.tx.idText(r.id), import_ref: r.import_ref }))).toEqual([
            { id: row.id, import_ref: 'before-close' },
          ])
        } finally {
          await again.close()
        }
      } finally {
        await d.remove()
      }
    })

    it('after a bulk load (bulkRows), closing leaves the schema whole: the next opening finds every index', async () => {
      const d = await freshDatabase(kind)
      try {
        const s = await d.open()
        const t = await seedTenant(s)
        const rows = Array.from({ length: 50 }, (_, i) => txRow(t, { import_ref: `bulk-${i}`, amount: i, base_amount: i }))
        expect((await s.hot.bulkLoad({ rows: 1_000_000 }).insert(rows)).ids()).toEqual(rows.map((r) => r.id))
        await s.close()
        const again = await d.open()
        try {
          expect((await schemaObjects(again)).indexes).toEqual(indexes(kind))
          expect(
            await again.db.selectFrom('settings').select('key').where('key', '=', 'deferred_indexes').executeTakeFirst(),
          ).toBeUndefined()
        } finally {
          await again.close()
        }
      } finally {
        await d.remove()
      }
    })
  })
})

/** A bare kysely on a test database, as an earlier release opened it (no store around it). */
