/**
 * `Prefer: bulk-load=N` on a batch (sent by `tx import`): on SQLite a large enough load sets the
 * secondary (non-unique) indexes of transactions aside, and the unique (account, import_ref) one, and
 * builds them again when the load ends, so every imported row skips a random insert into each
 * (src/store/sqlite/bulk-load.ts). Lists stay right meanwhile; every row stays exactly once (refs
 * there before, sent twice, retried, written by another connection meanwhile); the indexes come back
 * on close, after a quiet spell, or, after a crash, when the next process opens the file and the
 * loader is gone or its lease has run out. Thresholds come from FINCTL_BULK_LOAD_MIN_ROWS / _IDLE_MS here.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { KEPT, REF_INDEX } from '../../src/store/sqlite/bulk-load.js'
import { DEFERRED_KEY } from '../../src/store/sqlite/deferred-indexes.js'
import { INSERT_TRIGGER } from '../../src/store/report-totals.js'
import { openSqliteStore } from '../../src/store/sqlite/store.js'
import { createHarness, type Harness } from '../helpers/harness.js'
import { txRow } from '../store/fixtures.js'

/** The indexes of transactions, the unique ones apart, and the load's record in settings. */
function inspect(database: string): {
  secondary: string[]
  unique: string[]
  deferred?: { until: string; pid: number; indexes: Array<{ name: string }> }
  /** The triggers of transactions (a load sets the report totals' insert trigger aside too). */
  triggers: string[]
  integrity: string
} {
  const db = new Database(database, { readonly: true })
  try {
    const all = db
      .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL ORDER BY name`)
      .all() as Array<{ name: string; sql: string }>
    const value = (db.prepare('SELECT value FROM settings WHERE key = ?').get(DEFERRED_KEY) as { value: string } | undefined)?.value
    return {
      secondary: all.filter((i) => !/^CREATE UNIQUE/i.test(i.sql)).map((i) => i.name),
      unique: all.filter((i) => /^CREATE UNIQUE/i.test(i.sql)).map((i) => i.name),
      deferred: value ? JSON.parse(value) : undefined,
      triggers: db
        .prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'transactions' ORDER BY name`)
        .pluck()
        .all() as string[],
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    }
  } finally {
    db.close()
  }
}

/** The secondary indexes of a fresh file of this version (eight or so: dates, statuses, categories, reports, amount). */
async function allSecondary(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'finctl-bulk-'))
  try {
    const database = join(dir, 'finctl.db')
    await (await openSqliteStore(database)).close()
    return inspect(database).secondary
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function items(account: string, n: number, from = 0, ref?: string): CreateTransactionRequest[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k
    // Few distinct amounts: long runs of ties, in creation order.
    return {
      ...(ref ? { import_ref: `${ref}.${i}` } : {}),
      bank_account_id: account,
      transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-10`,
      description: `bulk ${i}`,
      amount: `${((i * 7919) % 97) - 48}.${String(1 + (i % 3)).padStart(2, '0')}`,
    }
  })
}

async function amountPages(c: Client, sort: 'amount' | '-amount', pages: number, limit: number): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  for (let p = 0; p < pages; p++) {
    const page = await c.transactions.list({ sort, limit, cursor })
    ids.push(...page.data.map((t) => t.id))
    cursor = page.pagination?.next_cursor ?? undefined
    if (!cursor) break
  }
  return ids
}

const saved = { min: process.env.FINCTL_BULK_LOAD_MIN_ROWS, idle: process.env.FINCTL_BULK_LOAD_IDLE_MS }
function thresholds(min: number, idleMs: number): void {
  process.env.FINCTL_BULK_LOAD_MIN_ROWS = String(min)
  process.env.FINCTL_BULK_LOAD_IDLE_MS = String(idleMs)
}

describe.each(['embedded', 'http'] as const)('bulk load over %s on SQLite', (kind) => {
  let h: Harness | undefined
  afterEach(async () => {
    await h?.close()
    h = undefined
    for (const [k, v] of [
      ['FINCTL_BULK_LOAD_MIN_ROWS', saved.min],
      ['FINCTL_BULK_LOAD_IDLE_MS', saved.idle],
    ] as const) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  })

  /** A service on a fresh SQLite file with these thresholds, a company, and a client for it. */
  async function start(minRows: number, idleMs: number): Promise<{ h: Harness; accountId: string; c: Client }> {
    thresholds(minRows, idleMs)
    const started = await createHarness(kind, 'sqlite', { own: true })
    h = started
    const t = await started.tenant('Bulk')
    return { h: started, accountId: t.accountId, c: started.client({ apiKey: t.key }) }
  }

  it('sets the secondary indexes aside for the load (the unique ones stay, and the one rows append to), pages correctly meanwhile, and builds them again when the service closes', async () => {
    const all = await allSecondary()
    expect(all).toEqual(expect.arrayContaining(KEPT))
    const expected = all.filter((i) => !KEPT.includes(i))
    expect(expected.length).toBeGreaterThanOrEqual(5)
    const { h: service, accountId, c } = await start(1000, 600_000)
    const n = 5_000 + 1000
    const created: Array<{ id: string; amount: number; date: string }> = []
    for (let i = 0; i < n; i += 2000) {
      const batch = items(accountId, Math.min(2000, n - i), i)
      const res = await c.transactions.batchMinimal(batch, { bulkRows: n })
      expect(res.errors).toEqual([])
      // Our service answers the minimal shape (index and id) to this preference.
      for (const r of res.created as Array<{ index: number; id: string }>)
        created.push({ id: r.id, amount: Number(batch[r.index].amount), date: batch[r.index].transaction_date })
    }
    expect(created).toHaveLength(n)
    const during = inspect(service.database)
    expect(during.secondary).toEqual(KEPT)
    expect(during.unique).toEqual(['transactions_id', 'transactions_statement_ref'])
    expect(during.deferred!.indexes.map((i) => i.name).sort()).toEqual([...expected, REF_INDEX, INSERT_TRIGGER].sort())
    expect(during.triggers).not.toContain(INSERT_TRIGGER)
    // The loader's process: this one embedded, the server's over http.
    if (kind === 'embedded') expect(during.deferred!.pid).toBe(process.pid)
    else expect(during.deferred!.pid).toBeGreaterThan(0)
    expect(Date.parse(during.deferred!.until)).toBeGreaterThan(Date.now())

    // Equal amounts in creation order (`created` is in creation order).
    const byAmount = created
      .map((r, i) => ({ ...r, i }))
      .sort((x, y) => x.amount - y.amount || x.i - y.i)
      .map((r) => r.id)
    expect(await amountPages(c, 'amount', 3, 300)).toEqual(byAmount.slice(0, 900))
    expect(await amountPages(c, '-amount', 3, 300)).toEqual([...byAmount].reverse().slice(0, 900))
    // Filters and reports read the indexes that are set aside: they scan meanwhile, and answer the same.
    const july = created.filter((r) => r.date.startsWith('2025-07')).length
    expect(july).toBeGreaterThan(0)
    const listed = await c.transactions.list({ from: '2025-07-01', to: '2025-07-31', limit: 1000, include_total: true })
    expect(listed.data).toHaveLength(july)
    expect(listed.pagination?.total).toBe(july)

    const { database, dir } = service
    await service.close({ keepFiles: true })
    h = undefined
    try {
      const after = inspect(database)
      expect(after).toEqual({
        secondary: all,
        unique: [...during.unique, REF_INDEX].sort(),
        deferred: undefined,
        triggers: [...during.triggers, INSERT_TRIGGER].sort(),
        integrity: 'ok',
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('keeps the indexes for a load below the threshold, or into a table that holds more than five times the rows announced', async () => {
    const expected = await allSecondary()
    const { h: service, accountId, c } = await start(1000, 600_000)
    await c.transactions.batchMinimal(items(accountId, 500), { bulkRows: 999 })
    expect(inspect(service.database).secondary).toEqual(expected)
    await c.transactions.batchMinimal(items(accountId, 5000, 500))
    // 5,500 rows there, 1,000 announced (under a fifth): the rebuild would cost more than the load saves.
    await c.transactions.batchMinimal(items(accountId, 100, 5500), { bulkRows: 1000 })
    expect(inspect(service.database).secondary).toEqual(expected)
    // 5,600 there, 1,200 announced (over a fifth): set aside.
    await c.transactions.batchMinimal(items(accountId, 100, 5600), { bulkRows: 1200 })
    const state = inspect(service.database)
    expect(state.secondary).toEqual(KEPT)
    // The indexes, the unique ref index and the report totals' insert trigger.
    expect(state.deferred?.indexes.length).toBe(expected.length - KEPT.length + 2)
  })

  /** The account's transactions by import_ref (every row once?), read from the file. */
  function refsOf(database: string, accountId: string): { rows: number; refs: number } {
    const db = new Database(database, { readonly: true })
    try {
      return db
        .prepare(
          `SELECT count(*) AS rows, count(DISTINCT import_ref) AS refs FROM transactions
           WHERE account_key = (SELECT key FROM bank_accounts WHERE id = ?) AND import_ref IS NOT NULL`,
        )
        .get(accountId) as { rows: number; refs: number }
    } finally {
      db.close()
    }
  }

  it('keeps every import_ref once while its index is aside: refs there before the load, sent again, twice in a batch, a retried batch', async () => {
    const { h: service, accountId, c } = await start(1000, 600_000)
    // Before the load: 300 rows with refs (pre.0 .. pre.299), with the index in place.
    const pre = await c.transactions.batchMinimal(items(accountId, 300, 0, 'pre'))
    const preIds = new Map((pre.created as Array<{ index: number; id: string }>).map((r) => [`pre.${r.index}`, r.id]))
    expect(preIds.size).toBe(300)
    // The load's first batch: 1,000 new refs, 100 of the refs there before, and one new ref twice.
    const first = [...items(accountId, 1000, 0, 'load'), ...items(accountId, 100, 0, 'pre'), ...items(accountId, 1, 7, 'load')]
    const a = await c.transactions.batchMinimal(first, { bulkRows: 5000 })
    expect(inspect(service.database).deferred?.indexes.map((i) => i.name)).toContain(REF_INDEX)
    expect(inspect(service.database).unique).not.toContain(REF_INDEX)
    const createdA = new Map((a.created as Array<{ index: number; id: string }>).map((r) => [first[r.index].import_ref!, r.id]))
    expect(createdA.size).toBe(1000)
    expect(a.errors).toEqual([])
    // Each duplicate named with the transaction that holds its ref: the earlier rows, and the twin's first row.
    expect(new Map(a.duplicates.map((d) => [d.import_ref, d.id]))).toEqual(
      new Map([
        ...Array.from({ length: 100 }, (_, i) => [`pre.${i}`, preIds.get(`pre.${i}`)!] as const),
        ['load.7', createdA.get('load.7')!],
      ]),
    )
    // The same batch again (a retry after a lost answer): nothing created, every row named.
    const again = await c.transactions.batchMinimal(first, { bulkRows: 5000 })
    expect(again.created).toEqual([])
    expect(again.duplicates).toHaveLength(first.length)
    for (const d of again.duplicates) expect(d.id).toBe(createdA.get(d.import_ref) ?? preIds.get(d.import_ref))
    // A later batch of the load, new refs and old.
    const later = [...items(accountId, 500, 1000, 'load'), ...items(accountId, 50, 950, 'load')]
    const b = await c.transactions.batchMinimal(later, { bulkRows: 5000 })
    expect(b.created).toHaveLength(500)
    expect(b.duplicates.map((d) => d.id).sort()).toEqual(Array.from({ length: 50 }, (_, i) => createdA.get(`load.${950 + i}`)!).sort())
    expect(refsOf(service.database, accountId)).toEqual({ rows: 1800, refs: 1800 })

    const { database, dir } = service
    await service.close({ keepFiles: true })
    h = undefined
    try {
      expect(inspect(database)).toMatchObject({ unique: expect.arrayContaining([REF_INDEX]), deferred: undefined, integrity: 'ok' })
      expect(refsOf(database, accountId)).toEqual({ rows: 1800, refs: 1800 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("another connection's refs during a load give the unique index back, and the load finishes exactly once", async () => {
    const { h: service, accountId, c } = await start(1000, 600_000)
    const loaded = await c.transactions.batchMinimal(items(accountId, 1000, 0, 'load'), { bulkRows: 5000 })
    expect(loaded.created).toHaveLength(1000)
    expect(inspect(service.database).unique).not.toContain(REF_INDEX)
    // Another connection to the file (another process would be the same) writes a ref the load has
    // written and a new one: the first is left out, which takes the unique index.
    const other = await openSqliteStore(service.database)
    try {
      const account = await other.db
        .selectFrom('bank_accounts')
        .select(['key', 'company_id'])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow()
      const companyKey = await other.tx.companyKey(account.company_id)
      const row = (ref: string, i: number) =>
        txRow(
          { companyKey, accountKey: Number(account.key), accountId },
          { id: `01a20c00-0000-7000-8000-${String(i).padStart(12, '0')}`, import_ref: ref, created_by: 'key:other' },
        )
      const inserted = await other.hot.insertTransactions([row('load.5', 1), row('other.1', 2)])
      expect(inserted.ids()).toEqual([row('other.1', 2).id])
      expect(inspect(service.database).unique).toContain(REF_INDEX)
      expect(inspect(service.database).deferred?.indexes.map((i) => i.name)).not.toContain(REF_INDEX)
    } finally {
      await other.close()
    }
    // The load goes on, now with ON CONFLICT: new refs, its own old ones, and the other connection's.
    const next = [...items(accountId, 500, 1000, 'load'), ...items(accountId, 20, 0, 'load'), items(accountId, 1, 1, 'other')[0]]
    const b = await c.transactions.batchMinimal(next, { bulkRows: 5000 })
    expect(b.created).toHaveLength(500)
    expect(b.duplicates.map((d) => d.import_ref).sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `load.${i}`), 'other.1'].sort())
    expect(b.duplicates.every((d) => d.id !== '')).toBe(true)

    const { database, dir } = service
    await service.close({ keepFiles: true })
    h = undefined
    try {
      expect(inspect(database)).toMatchObject({ deferred: undefined, integrity: 'ok' })
      expect(refsOf(database, accountId)).toEqual({ rows: 1501, refs: 1501 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("builds the indexes again before it answers the load's last batch (bulk-load-end), every row once", async () => {
    const all = await allSecondary()
    const { h: service, accountId, c } = await start(1000, 600_000)
    await c.transactions.batchMinimal(items(accountId, 1500, 0, 'end'), { bulkRows: 3000 })
    expect(inspect(service.database).secondary).toEqual(KEPT)
    const last = await c.transactions.batchMinimal(items(accountId, 1500, 1500, 'end'), { bulkRows: 3000, bulkEnd: true })
    expect(last.created).toHaveLength(1500)
    // Answered with every index back, long before the ten minutes of quiet.
    expect(inspect(service.database)).toMatchObject({
      secondary: all,
      unique: expect.arrayContaining([REF_INDEX]),
      deferred: undefined,
      integrity: 'ok',
    })
    expect(refsOf(service.database, accountId)).toEqual({ rows: 3000, refs: 3000 })
    // The hint alone, with no load under way, is nothing.
    expect((await c.transactions.batchMinimal(items(accountId, 10, 3000, 'end'), { bulkEnd: true })).created).toHaveLength(10)
  })

  it('builds the indexes again once the load has been quiet for the idle time', async () => {
    const expected = await allSecondary()
    const { h: service, accountId, c } = await start(1000, 200)
    await c.transactions.batchMinimal(items(accountId, 1500), { bulkRows: 1500 })
    const deadline = Date.now() + 60_000
    let state = inspect(service.database)
    while (state.secondary.length <= KEPT.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
      state = inspect(service.database)
    }
    expect(state).toMatchObject({ secondary: expected, deferred: undefined, integrity: 'ok' })
  })
})

describe('a bulk load that was killed', () => {
  /** What a loader leaves when it dies mid-load: the indexes dropped (the unique ref index too), their record under its lease. */
  function killedLoad(database: string, pid: number, until: Date): void {
    const db = new Database(database)
    const indexes = db
      .prepare(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL
           AND (sql NOT LIKE 'CREATE UNIQUE %' OR name = '${REF_INDEX}')`,
      )
      .all() as Array<{ name: string; sql: string }>
    db.transaction(() => {
      for (const i of indexes) db.exec(`DROP INDEX ${i.name}`)
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(
        DEFERRED_KEY,
        JSON.stringify({ until: until.toISOString(), pid, indexes }),
      )
    })()
    db.close()
  }

  it('is repaired by the next process that opens the file: at once when the loader is gone, else once its lease has run out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finctl-bulk-'))
    try {
      const database = join(dir, 'finctl.db')
      await (await openSqliteStore(database)).close()
      const expected = inspect(database).secondary
      const unique = inspect(database).unique
      expect(unique).toContain(REF_INDEX)
      // A live loader (this process stands in for it) under a current lease: left alone.
      killedLoad(database, process.pid, new Date(Date.now() + 60_000))
      await (await openSqliteStore(database)).close()
      expect(inspect(database).secondary).toEqual([])
      // The same lease, but it ran out: built.
      const db = new Database(database)
      const record = JSON.parse((db.prepare('SELECT value FROM settings WHERE key = ?').get(DEFERRED_KEY) as { value: string }).value)
      db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(
        JSON.stringify({ ...record, until: new Date(Date.now() - 1000).toISOString() }),
        DEFERRED_KEY,
      )
      db.close()
      await (await openSqliteStore(database)).close()
      expect(inspect(database)).toMatchObject({ secondary: expected, unique, deferred: undefined, integrity: 'ok' })
      // A loader that is gone (killed), though its lease would still run a minute: built at once.
      killedLoad(database, 2 ** 22 + 17, new Date(Date.now() + 60_000))
      await (await openSqliteStore(database)).close()
      expect(inspect(database)).toMatchObject({ secondary: expected, unique, deferred: undefined, integrity: 'ok' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
