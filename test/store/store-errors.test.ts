/**
 * A SQLite file that is full, damaged or read-only: the store says so in one line naming the file
 * (an AppError with a code of its own, src/store/store-errors.ts), nothing half written; a damaged
 * file is refused for writes, also by the next process; a bulk load's indexes left aside are built
 * before any other write of rows, and a build that fails fails that write with its reason. A full
 * disk is simulated with SQLite's max_page_count (a limit of the connection, as a disk would be).
 */
import Database from 'better-sqlite3'
import { existsSync, openSync, writeSync, closeSync } from 'node:fs'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toAppError } from '../../src/api/errors.js'
import { AppError } from '../../src/kernel/errors.js'
import { damageMarkPath } from '../../src/store/sqlite/damage-mark.js'
import { REF_INDEX } from '../../src/store/sqlite/bulk-load.js'
import { DEFERRED_KEY } from '../../src/store/sqlite/deferred-indexes.js'
import { openSqliteStore } from '../../src/store/sqlite/store.js'
import type { Store } from '../../src/store/store.js'
import { serviceWords, storeError, storeProblemOf } from '../../src/store/store-errors.js'
import { freshDatabase, seedTenant, txRow, type Tenant, type TestDatabase } from './fixtures.js'

function inspect(path: string) {
  const db = new Database(path, { readonly: true })
  try {
    const indexes = (
      db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL`).all() as Array<{
        name: string
      }>
    ).map((r) => r.name)
    return {
      rows: db.prepare('SELECT count(*) AS n, count(DISTINCT import_ref) AS refs FROM transactions').get() as { n: number; refs: number },
      indexes,
      deferred: db.prepare('SELECT value FROM settings WHERE key = ?').get(DEFERRED_KEY) as { value: string } | undefined,
      integrity: db.pragma('integrity_check', { simple: true }),
    }
  } finally {
    db.close()
  }
}

/** Let the file grow by at most `pages` pages from now on (this connection). */
async function limitGrowth(store: Store, pages: number): Promise<void> {
  const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(store.db)
  await sql.raw(`PRAGMA max_page_count = ${rows[0].page_count + pages}`).execute(store.db)
}

const rows = (t: Tenant, n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => txRow(t, { import_ref: `${prefix}.${i}`, description: `row ${i} ${'x'.repeat(200)}` }))

describe('store errors on SQLite', () => {
  let database: TestDatabase
  let store: Store
  let t: Tenant

  beforeEach(async () => {
    database = await freshDatabase('sqlite')
    store = await database.open()
    t = await seedTenant(store)
  })
  afterEach(async () => {
    await store?.close()
    await database?.remove()
  })

  it('a full disk: database_full naming the file, nothing of the batch written; writes go on once there is room', async () => {
    await store.hot.insertTransactions(rows(t, 10, 'before'))
    await limitGrowth(store, 2)
    const err = await store.hot.insertTransactions(rows(t, 2000, 'full')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect(err).toMatchObject({ code: 'database_full', status: 507 })
    expect((err as AppError).message).toContain(database.target)
    expect((err as AppError).message).toMatch(/disk is full \(SQLITE_FULL\); nothing was written.*finctl doctor/)
    // kysely's writes the same.
    await expect(
      store.writeTransaction(async (trx) => {
        for (let i = 0; i < 200; i++)
          await trx
            .insertInto('settings')
            .values({ key: `filler.${i}`, value: 'y'.repeat(2000) })
            .execute()
      }),
    ).rejects.toMatchObject({ code: 'database_full' })
    expect(inspect(database.target).rows.n).toBe(10)
    await sql.raw('PRAGMA max_page_count = 4294967294').execute(store.db)
    expect((await store.hot.insertTransactions(rows(t, 2000, 'full'))).size).toBe(2000)
    expect(inspect(database.target).rows).toEqual({ n: 2010, refs: 2010 })
  })

  it("a bulk load's build that fails on a full disk fails with that reason, and the next write builds the indexes first", async () => {
    await store.close()
    const before = inspect(database.target).indexes
    process.env.FINCTL_BULK_LOAD_MIN_ROWS = '100'
    try {
      store = await openSqliteStore(database.target)
    } finally {
      delete process.env.FINCTL_BULK_LOAD_MIN_ROWS
    }
    const load = store.hot.bulkLoad({ rows: 3000 })
    expect((await load.insert(rows(t, 3000, 'load'))).size).toBe(3000)
    expect(inspect(database.target).indexes).not.toContain(REF_INDEX)
    await limitGrowth(store, 1)
    await expect(load.end()).rejects.toMatchObject({ code: 'database_full' })
    // A row with a ref of the load: the unique index must come back before it, and cannot.
    const again = await store.hot.insertTransactions([txRow(t, { import_ref: 'load.7' })]).catch((e: unknown) => e)
    expect(again).toMatchObject({ code: 'database_full' })
    expect((again as AppError).message).toContain(database.target)
    expect(inspect(database.target).rows.n).toBe(3000)
    // Room again: the write builds every index first, then finds the ref taken.
    await sql.raw('PRAGMA max_page_count = 4294967294').execute(store.db)
    const inserted = await store.hot.insertTransactions([txRow(t, { import_ref: 'load.7' }), txRow(t, { import_ref: 'new.1' })])
    expect(inserted.size).toBe(1)
    const after = inspect(database.target)
    expect(after.indexes.sort()).toEqual([...before].sort())
    expect(after.deferred).toBeUndefined()
    expect(after.rows).toEqual({ n: 3001, refs: 3001 })
    expect(after.integrity).toBe('ok')
  })

  it("indexes left aside by a dead process's load are built before the next write, which fails with the reason when they cannot be", async () => {
    await store.hot.insertTransactions(rows(t, 3000, 'old'))
    const all = inspect(database.target).indexes
    // What a loader killed on a full disk leaves: its indexes dropped, their definitions and its (dead) pid in settings.
    const raw = new Database(database.target)
    try {
      const defs = raw
        .prepare(
          `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND name IN ('transactions_amount', ?)`,
        )
        .all(REF_INDEX) as Array<{ name: string; sql: string }>
      raw.transaction(() => {
        for (const d of defs) raw.exec(`DROP INDEX ${d.name}`)
        raw
          .prepare('INSERT INTO settings (key, value) VALUES (?, ?)')
          .run(DEFERRED_KEY, JSON.stringify({ until: new Date(Date.now() + 60_000).toISOString(), pid: 2 ** 22 + 17, indexes: defs }))
      })()
      raw.exec('VACUUM')
    } finally {
      raw.close()
    }
    await limitGrowth(store, 1)
    const err = await store.hot.insertTransactions([txRow(t, { import_ref: 'old.1' })]).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'database_full' })
    expect(inspect(database.target).rows.n).toBe(3000)
    await sql.raw('PRAGMA max_page_count = 4294967294').execute(store.db)
    expect((await store.hot.insertTransactions([txRow(t, { import_ref: 'old.1' })])).size).toBe(0)
    expect(inspect(database.target)).toMatchObject({ deferred: undefined, integrity: 'ok', rows: { n: 3000, refs: 3000 } })
    expect(inspect(database.target).indexes.sort()).toEqual([...all].sort())
  })

  it('a damaged page: database_damaged naming the file; writes refused from then on, also by the next process', async () => {
    await store.hot.insertTransactions(rows(t, 3000, 'row'))
    await store.close()
    const raw = new Database(database.target)
    const page = raw
      .prepare(`SELECT pageno FROM dbstat WHERE name = 'transactions' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3`)
      .pluck()
      .get() as number
    const size = raw.pragma('page_size', { simple: true }) as number
    raw.close()
    const fd = openSync(database.target, 'r+')
    writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (page - 1) * size)
    closeSync(fd)

    store = await openSqliteStore(database.target)
    const err = await store.db
      .selectFrom('transactions')
      .select(['id', 'description'])
      .execute()
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'database_damaged', status: 503 })
    expect((err as AppError).message).toContain(database.target)
    expect((err as AppError).message).toMatch(/is damaged \(SQLITE_CORRUPT\): finctl refuses to write to it\. Run `finctl doctor`/)
    expect(existsSync(damageMarkPath(database.target))).toBe(true)
    // A write that would not touch the damaged page is refused all the same.
    await expect(store.hot.insertTransactions([txRow(t, { import_ref: 'new.1' })])).rejects.toMatchObject({ code: 'database_damaged' })
    await expect(
      store.writeTransaction((trx) => trx.updateTable('bank_accounts').set({ name: 'X' }).where('id', '=', t.accountId).execute()),
    ).rejects.toMatchObject({ code: 'database_damaged' })
    await store.close()
    // The next process has not read the page: the mark beside the file tells it.
    store = await openSqliteStore(database.target)
    await expect(store.db.updateTable('bank_accounts').set({ name: 'Y' }).where('id', '=', t.accountId).execute()).rejects.toMatchObject({
      code: 'database_damaged',
    })
    await expect(store.hot.insertTransactions([txRow(t, { import_ref: 'new.2' })])).rejects.toMatchObject({ code: 'database_damaged' })
  })

  it('not a database at all: database_damaged at open, naming the file', async () => {
    await store.close()
    const fd = openSync(database.target, 'r+')
    writeSync(fd, Buffer.from('this is not a SQLite file, not at all'), 0, 37, 0)
    closeSync(fd)
    const err = await openSqliteStore(database.target).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'database_damaged' })
    expect((err as AppError).message).toContain(database.target)
    expect((err as AppError).message).toContain('SQLITE_NOTADB')
    store = undefined as unknown as Store
  })

  it('a read-only database: database_read_only naming the file, nothing written', async () => {
    await sql`PRAGMA query_only = 1`.execute(store.db)
    const err = await store.hot.insertTransactions(rows(t, 5, 'ro')).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'database_read_only', status: 503 })
    expect((err as AppError).message).toContain(database.target)
    expect((err as AppError).message).toMatch(/is read-only \(SQLITE_READONLY\): nothing was written/)
    await expect(store.db.updateTable('bank_accounts').set({ name: 'Y' }).execute()).rejects.toMatchObject({ code: 'database_read_only' })
    await sql`PRAGMA query_only = 0`.execute(store.db)
    expect(inspect(database.target).rows.n).toBe(0)
  })
})

describe('what a driver error means', () => {
  const err = (code: string) => Object.assign(new Error(code), { code })

  it('SQLite and PostgreSQL codes name the same four problems; anything else is not one', () => {
    const cases: Array<[string, string | undefined]> = [
      ['SQLITE_BUSY', 'busy'],
      ['SQLITE_BUSY_SNAPSHOT', 'busy'],
      ['SQLITE_FULL', 'full'],
      ['53100', 'full'],
      ['SQLITE_CORRUPT', 'damaged'],
      ['SQLITE_CORRUPT_INDEX', 'damaged'],
      ['SQLITE_NOTADB', 'damaged'],
      ['XX001', 'damaged'],
      ['SQLITE_READONLY', 'read_only'],
      ['SQLITE_READONLY_DBMOVED', 'read_only'],
      ['25006', 'read_only'],
      ['SQLITE_CONSTRAINT_UNIQUE', undefined],
      ['23505', undefined],
    ]
    for (const [code, problem] of cases) expect(storeProblemOf(err(code)), code).toBe(problem)
    expect(storeProblemOf(new Error('no code'))).toBeUndefined()
  })

  it("the API answers a PostgreSQL error of the kind with its code and status, and a service's words leave the file out", () => {
    const full = toAppError(err('53100'), 'req_1', 'postgres://db.internal/finctl')
    expect(full).toMatchObject({ code: 'database_full', status: 507 })
    expect(full.message).toContain('postgres://db.internal/finctl')
    const readOnly = toAppError(err('25006'), 'req_2', 'postgres://db.internal/finctl')
    expect(readOnly).toMatchObject({ code: 'database_read_only', status: 503 })
    const local = storeError('busy', '/home/me/finctl.db', { waitedMs: 10_000 })
    expect(local.message).toContain('/home/me/finctl.db')
    expect(local.message).toContain('10 s')
    const served = serviceWords(local)
    expect(served).toMatchObject({ code: 'database_busy', status: 503, retryAfter: 1 })
    expect(served.message).not.toContain('/home/me')
    expect(served.internal).toContain('/home/me/finctl.db')
  })
})
