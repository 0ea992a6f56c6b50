/**
 * Writers on one SQLite file take turns (src/store/sqlite/turns.ts): a write waits for another
 * connection's transaction without holding the thread, gives up after FINCTL_BUSY_TIMEOUT_MS with
 * `database_busy` naming the file and nothing written; two bulk loads into one account at once land
 * every row exactly once (the second goes the row path beside the first).
 */
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { REF_INDEX } from '../../src/store/sqlite/bulk-load.js'
import { DEFERRED_KEY } from '../../src/store/sqlite/deferred-indexes.js'
import { openSqliteStore } from '../../src/store/sqlite/store.js'
import { busyWaitMs, NOT_NOW, Turns } from '../../src/store/sqlite/turns.js'
import type { Store } from '../../src/store/store.js'
import { freshDatabase, seedTenant, txRow, type Tenant, type TestDatabase } from './fixtures.js'

/** Set environment variables for the stores opened inside `fn`, then restore them. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  try {
    return await fn()
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

function counts(path: string, accountKey: number): { n: number; refs: number; sum: number } {
  const db = new Database(path, { readonly: true })
  try {
    return db
      .prepare(
        'SELECT count(*) AS n, count(DISTINCT import_ref) AS refs, coalesce(sum(amount), 0) AS sum FROM transactions WHERE account_key = ?',
      )
      .get(accountKey) as { n: number; refs: number; sum: number }
  } finally {
    db.close()
  }
}

describe('turns', () => {
  it('tries again after growing waits until the attempt goes through', async () => {
    const waits: number[] = []
    const turns = new Turns(
      10_000,
      () => new Error('timed out'),
      async (ms) => void waits.push(ms),
    )
    let tries = 0
    const r = await turns.take(() => (++tries < 7 ? NOT_NOW : 'done'))
    expect(r).toBe('done')
    expect(waits).toHaveLength(6)
    // Each wait lies within half to one and a half of 2 ms doubling to 100 ms: it grows.
    const nominal = [2, 4, 8, 16, 32, 64]
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(nominal[i] * 0.5)
      expect(w).toBeLessThanOrEqual(nominal[i] * 1.5)
    })
  })

  it('gives up with its error once the bound has passed, and never waits past it', async () => {
    const turns = new Turns(60, (waited) => new Error(`waited ${Math.round(waited)}`))
    const started = performance.now()
    await expect(turns.take(() => NOT_NOW)).rejects.toThrow(/^waited \d+$/)
    // Never before its bound; how soon after it: test/timing/bounded-waits.test.ts.
    expect(performance.now() - started).toBeGreaterThanOrEqual(60)
  })

  it('reads its bound from FINCTL_BUSY_TIMEOUT_MS (10 s by default)', () => {
    expect(busyWaitMs({})).toBe(10_000)
    expect(busyWaitMs({ FINCTL_BUSY_TIMEOUT_MS: '250' })).toBe(250)
    expect(busyWaitMs({ FINCTL_BUSY_TIMEOUT_MS: 'soon' })).toBe(10_000)
  })
})

describe('writers on one SQLite file', () => {
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

  it("a write waits for another connection's transaction, and the thread keeps turning meanwhile", async () => {
    const other = new Database(database.target)
    other.exec('BEGIN IMMEDIATE')
    // Released by a timer of this very thread: a write that held the thread while it waited would never see it.
    setTimeout(() => other.exec('COMMIT'), 400)
    let ticks = 0
    const ticker = setInterval(() => ticks++, 20)
    try {
      const inserted = await store.hot.insertTransactions([txRow(t, { import_ref: 'waited.1' })])
      expect(inserted.size).toBe(1)
      const updated = await store.writeTransaction((trx) =>
        trx.updateTable('bank_accounts').set({ name: 'Renamed' }).where('id', '=', t.accountId).execute(),
      )
      expect(Number(updated[0].numUpdatedRows)).toBe(1)
    } finally {
      clearInterval(ticker)
      other.close()
    }
    expect(ticks).toBeGreaterThan(5)
    expect(counts(database.target, t.accountKey).n).toBe(1)
  })

  it('a lock held past the wait: database_busy naming the file, Retry-After, nothing written', async () => {
    const waiting = await withEnv({ FINCTL_BUSY_TIMEOUT_MS: '300' }, () => openSqliteStore(database.target))
    const other = new Database(database.target)
    other.exec('BEGIN IMMEDIATE')
    try {
      const started = performance.now()
      const err = await waiting.hot.insertTransactions([txRow(t, { import_ref: 'locked.1' })]).catch((e: unknown) => e)
      expect(performance.now() - started).toBeGreaterThanOrEqual(300)
      expect(err).toBeInstanceOf(AppError)
      expect(err).toMatchObject({ code: 'database_busy', status: 503, retryAfter: 1 })
      expect((err as AppError).message).toContain(database.target)
      expect((err as AppError).message).toMatch(/locked by another process.*nothing was written/)
      // kysely's writes the same.
      await expect(
        waiting.writeTransaction((trx) => trx.updateTable('bank_accounts').set({ name: 'X' }).where('id', '=', t.accountId).execute()),
      ).rejects.toMatchObject({ code: 'database_busy' })
      await expect(
        waiting.db.updateTable('bank_accounts').set({ name: 'Y' }).where('id', '=', t.accountId).execute(),
      ).rejects.toMatchObject({ code: 'database_busy' })
    } finally {
      other.exec('ROLLBACK')
      other.close()
      await waiting.close()
    }
    expect(counts(database.target, t.accountKey).n).toBe(0)
  })

  it('two bulk loads into one account at once, from two connections: every row exactly once', async () => {
    const second = await withEnv({ FINCTL_BULK_LOAD_MIN_ROWS: '500' }, () => openSqliteStore(database.target))
    await store.close()
    store = await withEnv({ FINCTL_BULK_LOAD_MIN_ROWS: '500' }, () => openSqliteStore(database.target))
    // Two loads of 3,000 rows, 1,000 of them the same refs (the same days of one bank's export), in batches of 250, at once.
    const load = (from: number) => Array.from({ length: 3000 }, (_, i) => txRow(t, { import_ref: `ref.${from + i}`, amount: -(from + i) }))
    const a = load(0)
    const b = load(2000)
    const send = async (s: Store, rows: ReturnType<typeof load>) => {
      let created = 0
      const bulk = s.hot.bulkLoad({ rows: rows.length })
      for (let i = 0; i < rows.length; i += 250) created += (await bulk.insert(rows.slice(i, i + 250))).size
      await bulk.end()
      return created
    }
    try {
      const [createdA, createdB] = await Promise.all([send(store, a), send(second, b)])
      expect(createdA + createdB).toBe(5000)
    } finally {
      await second.close()
    }
    let sum = 0
    for (let i = 0; i < 5000; i++) sum -= i
    expect(counts(database.target, t.accountKey)).toEqual({ n: 5000, refs: 5000, sum })
    const db = new Database(database.target, { readonly: true })
    try {
      expect(db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(REF_INDEX)).toBeDefined()
      expect(db.prepare('SELECT value FROM settings WHERE key = ?').get(DEFERRED_KEY)).toBeUndefined()
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
    }
  })
})
