/**
 * `Prefer: bulk-load=N` on a batch (sent by `tx import`): on SQLite a large enough load sets the
 * secondary (non-unique) indexes of transactions aside and builds them again when the load ends, so
 * every imported row skips a random insert into each (src/store/sqlite-bulk-load.ts). Lists stay
 * right meanwhile, the indexes come back on close, after a quiet spell, or, after a crash, when the
 * next process opens the file and the loader is gone or its lease has run out. Thresholds come from
 * FINCTL_BULK_LOAD_MIN_ROWS / _IDLE_MS here.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { DEFERRED_KEY, KEPT } from '../../src/store/sqlite-bulk-load.js'
import { openSqliteStore } from '../../src/store/sqlite-store.js'
import { createHarness, type Harness } from '../helpers/harness.js'

/** The indexes of transactions, the unique ones apart, and the load's record in settings. */
function inspect(database: string): {
  secondary: string[]
  unique: string[]
  deferred?: { until: string; pid: number; indexes: Array<{ name: string }> }
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

function items(account: string, n: number, from = 0): CreateTransactionRequest[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k
    // Few distinct amounts: long runs of ties, ordered by id.
    return {
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
    const started = await createHarness(kind, 'sqlite')
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
    expect(during.unique).toContain('transactions_import_ref')
    expect(during.deferred!.indexes.map((i) => i.name).sort()).toEqual(expected)
    // The loader's process: this one embedded, the server's over http.
    if (kind === 'embedded') expect(during.deferred!.pid).toBe(process.pid)
    else expect(during.deferred!.pid).toBeGreaterThan(0)
    expect(Date.parse(during.deferred!.until)).toBeGreaterThan(Date.now())

    const byAmount = [...created].sort((x, y) => x.amount - y.amount || (x.id < y.id ? -1 : 1)).map((r) => r.id)
    expect(await amountPages(c, 'amount', 3, 300)).toEqual(byAmount.slice(0, 900))
    expect(await amountPages(c, '-amount', 3, 300)).toEqual([...byAmount].reverse().slice(0, 900))
    // Filters and reports read the indexes that are set aside: they scan meanwhile, and answer the same.
    const july = created.filter((r) => r.date.startsWith('2025-07')).length
    expect(july).toBeGreaterThan(0)
    const listed = await c.transactions.list({ from: '2025-07-01', to: '2025-07-31', limit: 1000 })
    expect(listed.data).toHaveLength(july)
    expect(listed.pagination?.total).toBe(july)

    const { database, dir } = service
    await service.close({ keepFiles: true })
    h = undefined
    try {
      const after = inspect(database)
      expect(after).toEqual({ secondary: all, unique: during.unique, deferred: undefined, integrity: 'ok' })
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
    expect(state.deferred?.indexes.length).toBe(expected.length - KEPT.length)
  })

  it('builds the indexes again once the load has been quiet for the idle time', async () => {
    const expected = await allSecondary()
    const { h: service, accountId, c } = await start(1000, 200)
    await c.transactions.batchMinimal(items(accountId, 1500), { bulkRows: 1500 })
    const deadline = Date.now() + 15_000
    let state = inspect(service.database)
    while (state.secondary.length <= KEPT.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
      state = inspect(service.database)
    }
    expect(state).toMatchObject({ secondary: expected, deferred: undefined, integrity: 'ok' })
  })
})

describe('a bulk load that was killed', () => {
  /** What a loader leaves when it dies mid-load: the indexes dropped, their record under its lease. */
  function killedLoad(database: string, pid: number, until: Date): void {
    const db = new Database(database)
    const indexes = db
      .prepare(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %'`,
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
      expect(inspect(database)).toMatchObject({ secondary: expected, deferred: undefined, integrity: 'ok' })
      // A loader that is gone (killed), though its lease would still run a minute: built at once.
      killedLoad(database, 2 ** 22 + 17, new Date(Date.now() + 60_000))
      await (await openSqliteStore(database)).close()
      expect(inspect(database)).toMatchObject({ secondary: expected, deferred: undefined, integrity: 'ok' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
