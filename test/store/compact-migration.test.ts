/**
 * Migration 0011 converts a database made by the release before it in place: a
 * database is made with migrations 0001 to 0010 and filled with rows of every kind the older
 * release wrote (columns equal to another or not, each creator and creation, statement and import
 * references, tags, rates, amounts up to 2^53 - 1, random and time-ordered UUIDs), then opened by
 * today's store. Every transaction comes back with its id and every value, in creation order, the
 * API reads them, new rows and accounts go on from there, and an interrupted conversion (killed
 * after its commit, before the migrator recorded it) is finished by the next opening.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { migrate, migrations } from '../../src/store/migrations/index.js'
import type { Store } from '../../src/store/store.js'
import type { TransactionRow } from '../../src/store/transaction-codec.js'
import { listTransactions } from '../../src/domain/transactions/queries.js'
import { getTransactionDetail } from '../../src/domain/transactions/updates.js'
import { appliedMigrations, freshDatabase, rawKysely, STORES, TRANSACTION_INDEXES, takeBackAfter, type TestDatabase } from './fixtures.js'

/** A row as release 0010 stored it. */
type OldRow = Omit<TransactionRow, 'seq' | 'company_key' | 'account_key'> & { company_id: string }

const T0 = '2026-01-05T09:00:00.000Z'
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString()

function oldRow(companyId: string, accountId: string, n: number, over: Partial<OldRow> = {}): OldRow {
  return {
    id: randomUUID(),
    company_id: companyId,
    bank_account_id: accountId,
    bank_statement_id: null,
    transaction_date: `2026-01-${String(1 + (n % 28)).padStart(2, '0')}`,
    posted_date: `2026-01-${String(1 + (n % 28)).padStart(2, '0')}`,
    description: `Row ${n}`,
    original_description: `Row ${n}`,
    amount: -100 * (n + 1),
    currency_code: 'USD',
    exchange_rate: '1',
    base_amount: -100 * (n + 1),
    category: null,
    accounting_category: null,
    cash_flow_category: null,
    merchant_name: null,
    status: 'pending',
    is_reconciled: 0,
    ai_confidence_score: null,
    tags: '[]',
    created_at: at(n),
    updated_at: at(n),
    import_ref: null,
    statement_ref: null,
    created_by: null,
    created_via: null,
    exchange_rate_date: null,
    ...over,
  }
}

describe.each(STORES)('migration 0011 on %s: a database of the release before, converted in place', (kind) => {
  const opened: Array<{ database: TestDatabase; store?: Store }> = []
  afterEach(async () => {
    for (const d of opened.splice(0)) {
      await d.store?.close().catch(() => {})
      await d.database.remove()
    }
  })

  /** A database at migration 0010, with two companies, three accounts, a statement, an audit entry and `rows`. */
  async function olderDatabase(): Promise<{ d: { database: TestDatabase; store?: Store }; rows: OldRow[]; ids: Record<string, string> }> {
    const d = { database: await freshDatabase(kind) } as { database: TestDatabase; store?: Store }
    opened.push(d)
    const raw = await rawKysely(d.database)
    // The tables of release 0010, which today's types no longer describe.
    const db = raw.db as any
    await migrate(raw.db, Object.fromEntries(Object.entries(migrations(kind)).slice(0, 10)), raw.schema)
    const ids = { acme: randomUUID(), other: randomUUID(), operating: randomUUID(), savings: randomUUID(), foreign: randomUUID() }
    // Created out of id order: keys follow creation order.
    await db
      .insertInto('companies')
      .values({ id: ids.other, name: 'Other', base_currency: 'EUR', created_at: at(-20) })
      .execute()
    await db
      .insertInto('companies')
      .values({ id: ids.acme, name: 'Acme', base_currency: 'USD', created_at: at(-30) })
      .execute()
    const account = (id: string, company: string, name: string, created: string, currency = 'USD') => ({
      id,
      company_id: company,
      name,
      institution_name: null,
      account_type: 'checking',
      account_number_last4: null,
      currency_code: currency,
      status: 'active',
      opening_balance: 0,
      opening_balance_date: null,
      created_at: created,
      updated_at: created,
    })
    await db
      .insertInto('bank_accounts')
      .values([
        account(ids.operating, ids.acme, 'Operating', at(-10)),
        account(ids.savings, ids.acme, 'Savings', at(-9)),
        account(ids.foreign, ids.other, 'Konto', at(-8), 'EUR'),
      ])
      .execute()
    const statementId = randomUUID()
    await db
      .insertInto('bank_statements')
      .values({
        id: statementId,
        company_id: ids.acme,
        bank_account_id: ids.operating,
        file_name: 'jan.csv',
        format: 'csv',
        file_sha256: 'ab'.repeat(32),
        file_size: 10,
        currency_code: 'USD',
        status: 'completed',
        created_by: 'key:k1',
        created_at: at(0),
        updated_at: at(0),
      })
      .execute()
    const v7 = '01a20c4c-7628-7002-a950-1fa4dc788709'
    const rows: OldRow[] = [
      // Created before 0009: no creator, no creation.
      oldRow(ids.acme, ids.operating, 0),
      oldRow(ids.acme, ids.operating, 1, {
        id: v7,
        posted_date: '2026-01-09',
        original_description: 'ROW 1  #123\nsecond line',
        created_by: 'key:k1',
        created_via: 'batch_create',
        import_ref: '20260102.abcdefghijklmnopqrstuv.1',
        tags: '["q1","travel"]',
        category: 'Travel',
        accounting_category: 'operating_expenses',
        cash_flow_category: 'operations',
        merchant_name: 'United',
        ai_confidence_score: 0.75,
      }),
      oldRow(ids.acme, ids.operating, 2, {
        created_by: 'user:u1',
        created_via: 'create',
        updated_at: at(500),
        status: 'posted',
        is_reconciled: 1,
        amount: 9_007_199_254_740_991,
        base_amount: 9_007_199_254_740_991,
      }),
      oldRow(ids.acme, ids.operating, 3, {
        created_by: 'key:k1',
        created_via: 'statement_import',
        bank_statement_id: statementId,
        statement_ref: 'jan.csv:1',
        status: 'posted',
      }),
      oldRow(ids.acme, ids.savings, 4, {
        currency_code: 'GBP',
        exchange_rate: '1.27',
        exchange_rate_date: '2026-01-04',
        amount: -1000,
        base_amount: -1270,
        created_by: 'key:k2',
        created_via: 'batch_create',
        import_ref: 'seed.s.1',
      }),
      // Two rows created in the same millisecond: seq follows their ids.
      oldRow(ids.other, ids.foreign, 5, { id: 'ffffffff-0000-4000-8000-000000000000', created_at: at(7), updated_at: at(7) }),
      oldRow(ids.other, ids.foreign, 6, { id: '00000000-0000-4000-8000-000000000000', created_at: at(7), updated_at: at(7) }),
    ]
    // Inserted out of creation order.
    for (const r of [...rows].reverse()) await db.insertInto('transactions').values(r).execute()
    await db
      .insertInto('audit_entries')
      .values({ company_id: ids.acme, transaction_id: rows[2].id, actor: 'user:u1', action: 'update', changes: '{}', created_at: at(500) })
      .execute()
    await raw.db.destroy()
    return { d, rows, ids }
  }

  it('keeps every transaction with its id and values, numbered in creation order, and the API reads them', async () => {
    const { d, rows, ids } = await olderDatabase()
    const s = (d.store = await d.database.open())
    expect((await appliedMigrations(s)).map((m) => m.name)).toContain('0011_compact_transactions')

    const stored = await s.db.selectFrom('transactions').selectAll().orderBy('seq').execute()
    const back = await s.tx.decode(s.db, stored)
    const byCreation = [...rows].sort((a, b) => (a.created_at + a.id < b.created_at + b.id ? -1 : 1))
    expect(back.map((r) => r.id)).toEqual(byCreation.map((r) => r.id))
    expect(back.map((r) => r.seq)).toEqual(byCreation.map((_, i) => i + 1))
    const keys = Object.fromEntries(
      (await s.db.selectFrom('companies').select(['id', 'key']).execute()).map((c) => [c.id, Number(c.key)]),
    ) as Record<string, number>
    // Companies numbered in creation order (Acme was created first).
    expect([keys[ids.acme], keys[ids.other]]).toEqual([1, 2])
    for (const [i, r] of back.entries()) {
      const { company_id, ...old } = byCreation[i]
      expect(r).toEqual({ ...old, seq: i + 1, company_key: keys[company_id], account_key: r.account_key })
    }
    // Stored compactly: equal columns as NULL, the creator and creation as keys.
    const compact = stored.find((r) => s.tx.idText(r.id) === rows[1].id)!
    expect(compact).toMatchObject({
      posted_date: '2026-01-09',
      original_description: 'ROW 1  #123\nsecond line',
      updated_at: null,
      created_via: 2,
    })
    expect(stored.find((r) => s.tx.idText(r.id) === rows[0].id)).toMatchObject({ posted_date: null, original_description: null })
    expect((await s.db.selectFrom('actors').select('name').orderBy('name').execute()).map((a) => a.name)).toEqual([
      'key:k1',
      'key:k2',
      'user:u1',
    ])

    // The API's reads: a list page per company, one transaction with its history.
    const page = await listTransactions(s, ids.acme, { sort: 'created_at', limit: 50 })
    expect(page.data.map((t) => t.id)).toEqual(byCreation.filter((r) => r.company_id === ids.acme).map((r) => r.id))
    expect(page.data.find((t) => t.id === rows[2].id)?.amount).toBe(90_071_992_547_409.91)
    const detail = await getTransactionDetail(s, ids.acme, rows[2].id)
    expect(detail.bank_account).toEqual({ id: ids.operating, name: 'Operating' })
    expect(detail.history.map((h) => [h.actor, h.action])).toEqual([
      ['user:u1', 'create'],
      ['user:u1', 'update'],
    ])
    await expect(getTransactionDetail(s, ids.other, rows[2].id)).rejects.toThrow(/not found/)

    // Indexes and integrity.
    const names =
      kind === 'sqlite'
        ? (await sql<{ name: string }>`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions'`.execute(s.db))
            .rows
        : (
            await sql<{
              name: string
            }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'transactions' AND schemaname = current_schema()`.execute(s.db)
          ).rows
    expect(
      names
        .map((n) => n.name)
        .filter((n) => !n.startsWith('sqlite_') && !n.endsWith('_pkey'))
        .sort(),
    ).toEqual(TRANSACTION_INDEXES)
    if (kind === 'sqlite')
      expect((await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(s.db)).rows[0].integrity_check).toBe('ok')
  })

  it('goes on from there: the next account and company take the next keys, an import_ref stays taken', async () => {
    const { d, rows, ids } = await olderDatabase()
    const s = (d.store = await d.database.open())
    const { createBankAccount } = await import('../../src/domain/accounts/bank-accounts.js')
    const actor = { companyId: ids.acme, kind: 'api_key' as const, keyId: 'k1', scopes: ['write' as const] }
    const created = await createBankAccount(s, actor, { name: 'New', account_type: 'checking', currency_code: 'USD' } as never, new Date())
    const key = await s.db.selectFrom('bank_accounts').select('key').where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(Number(key.key)).toBe(4)
    const { storeTransactionBatch } = await import('../../src/domain/transactions/create.js')
    const { DEFAULT_DATE_WINDOW: window } = await import('../../src/domain/transactions/plausibility.js')
    const answer = await storeTransactionBatch(
      s,
      actor,
      [
        {
          bank_account_id: ids.operating,
          transaction_date: '2026-01-02',
          description: 'again',
          amount: '-1.00',
          import_ref: rows[1].import_ref!,
        },
        { bank_account_id: ids.operating, transaction_date: '2026-01-02', description: 'new', amount: '-2.00', import_ref: 'new.1' },
      ],
      { now: new Date(), window, minimal: true },
    )
    expect(answer.duplicates).toEqual([{ index: 0, id: rows[1].id, import_ref: rows[1].import_ref }])
    expect(answer.created).toHaveLength(1)
    const [fresh] = await s.tx.decode(
      s.db,
      await s.db.selectFrom('transactions').selectAll().where('id', '=', s.tx.idParam(answer.created[0].id)!).execute(),
    )
    // After every converted row (PostgreSQL's identity may leave gaps: a row left out still drew its value).
    expect(fresh.seq).toBeGreaterThan(rows.length)
  })

  // SQLite only: PostgreSQL gives a dropped table's space back by itself.
  const sqliteOnly = kind === 'sqlite' ? it : () => {}
  sqliteOnly('gives the space the old layout took back to the file system (VACUUM after the conversion)', async () => {
    const { d, ids } = await olderDatabase()
    const { default: Database } = await import('better-sqlite3')
    const raw = new Database(d.database.target)
    const insert = raw.prepare(
      `INSERT INTO transactions (id, company_id, bank_account_id, transaction_date, posted_date, description, original_description, amount,
         currency_code, exchange_rate, base_amount, status, is_reconciled, tags, created_at, updated_at, import_ref, created_by, created_via)
       VALUES (?, ?, ?, '2026-02-01', '2026-02-01', ?, ?, -100, 'USD', '1', -100, 'pending', 0, '[]', ?, ?, ?, 'key:k1', 'batch_create')`,
    )
    raw.transaction(() => {
      for (let i = 0; i < 20_000; i++)
        insert.run(randomUUID(), ids.acme, ids.operating, `Bulk ${i}`, `BULK ${i}`, at(100 + i), at(100 + i), `bulk.${i}`)
    })()
    raw.pragma('wal_checkpoint(TRUNCATE)')
    const before = raw.pragma('page_count', { simple: true }) as number
    raw.close()
    const s = (d.store = await d.database.open())
    const pages = Number((await sql<{ page_count: number }>`PRAGMA page_count`.execute(s.db)).rows[0].page_count)
    const free = Number((await sql<{ freelist_count: number }>`PRAGMA freelist_count`.execute(s.db)).rows[0].freelist_count)
    expect(free).toBeLessThan(16)
    expect(pages).toBeLessThan(before * 0.6)
    expect(
      (
        await s.db
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(20_007)
  })

  it('a conversion killed after its commit, before the migrator recorded it, is recorded by the next opening and not run twice', async () => {
    const { d, rows } = await olderDatabase()
    const first = await d.database.open()
    const before = await first.db.selectFrom('transactions').select(['seq', 'id']).orderBy('seq').execute()
    // Killed before the migrator recorded 0011: nothing after it ran either.
    await takeBackAfter(first, '0011_compact_transactions', { forgetFrom: '0011_compact_transactions' })
    await first.close()
    const s = (d.store = await d.database.open())
    expect((await appliedMigrations(s)).map((m) => m.name)).toContain('0011_compact_transactions')
    expect(await s.db.selectFrom('transactions').select(['seq', 'id']).orderBy('seq').execute()).toEqual(before)
    expect(before).toHaveLength(rows.length)
  })
})
