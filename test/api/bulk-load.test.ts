/**
 * `Prefer: bulk-load=N` on a batch (sent by `tx import`): on SQLite a large enough load sets the
 * amount index aside and builds it again when the load ends, so every imported row skips a random
 * insert into it. Amount-sorted pages stay right meanwhile (they sort), the index comes back on
 * close, after a quiet spell, or, after a crash, when the next process opens the file and the
 * load's lease has run out. Thresholds come from FINCTL_BULK_LOAD_MIN_ROWS / _IDLE_MS here.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { AMOUNT_WALK_MIN_ROWS } from '../../src/domain/transactions/queries.js'
import { AMOUNT_INDEX } from '../../src/store/migrations/index.js'
import { openSqliteStore } from '../../src/store/sqlite-store.js'
import { createHarness, type Harness } from '../helpers/harness.js'

const LEASE = 'amount_index_lease'

function inspect(database: string): { index: boolean; lease?: string } {
  const db = new Database(database, { readonly: true })
  try {
    const index = !!db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?`).get(AMOUNT_INDEX)
    const lease = (db.prepare('SELECT value FROM settings WHERE key = ?').get(LEASE) as { value: string } | undefined)?.value
    return { index, lease }
  } finally {
    db.close()
  }
}

function items(account: string, n: number, from = 0): CreateTransactionRequest[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k
    // Few distinct amounts: long runs of ties, ordered by id.
    return { bank_account_id: account, transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-10`, description: `bulk ${i}`, amount: `${((i * 7919) % 97) - 48}.${String(1 + (i % 3)).padStart(2, '0')}` }
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
    for (const [k, v] of [['FINCTL_BULK_LOAD_MIN_ROWS', saved.min], ['FINCTL_BULK_LOAD_IDLE_MS', saved.idle]] as const) {
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

  it('sets the amount index aside for the load, pages by amount correctly meanwhile, and builds it again when the service closes', async () => {
    const { h: service, accountId, c } = await start(1000, 600_000)
    const n = AMOUNT_WALK_MIN_ROWS + 1000
    const created: Array<{ id: string; amount: number }> = []
    for (let i = 0; i < n; i += 2000) {
      const batch = items(accountId, Math.min(2000, n - i), i)
      const res = await c.transactions.batchMinimal(batch, { bulkRows: n })
      expect(res.errors).toEqual([])
      // Our service answers the minimal shape (index and id) to this preference.
      for (const r of res.created as Array<{ index: number; id: string }>) created.push({ id: r.id, amount: Number(batch[r.index].amount) })
    }
    expect(created).toHaveLength(n)
    const during = inspect(service.database)
    expect(during.index).toBe(false)
    expect(Date.parse(during.lease!)).toBeGreaterThan(Date.now())

    const byAmount = [...created].sort((x, y) => x.amount - y.amount || (x.id < y.id ? -1 : 1)).map((r) => r.id)
    expect(await amountPages(c, 'amount', 3, 300)).toEqual(byAmount.slice(0, 900))
    expect(await amountPages(c, '-amount', 3, 300)).toEqual([...byAmount].reverse().slice(0, 900))

    const { database, dir } = service
    await service.close({ keepFiles: true })
    h = undefined
    try {
      expect(inspect(database)).toEqual({ index: true, lease: undefined })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('keeps the index for a load below the threshold, or into a table that holds more than twice the rows announced', async () => {
    const { h: service, accountId, c } = await start(1000, 600_000)
    await c.transactions.batchMinimal(items(accountId, 500), { bulkRows: 999 })
    expect(inspect(service.database).index).toBe(true)
    await c.transactions.batchMinimal(items(accountId, 2000, 500))
    // 2,500 rows there, 1,000 announced: the rebuild would cost more than the load saves.
    await c.transactions.batchMinimal(items(accountId, 100, 2500), { bulkRows: 1000 })
    expect(inspect(service.database).index).toBe(true)
    // 2,600 there, 2,000 announced: set aside.
    await c.transactions.batchMinimal(items(accountId, 100, 2600), { bulkRows: 2000 })
    expect(inspect(service.database)).toEqual({ index: false, lease: expect.any(String) })
  })

  it('builds the index again once the load has been quiet for the idle time', async () => {
    const { h: service, accountId, c } = await start(1000, 200)
    await c.transactions.batchMinimal(items(accountId, 1500), { bulkRows: 1500 })
    const deadline = Date.now() + 15_000
    let state = inspect(service.database)
    while (!state.index && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
      state = inspect(service.database)
    }
    expect(state).toEqual({ index: true, lease: undefined })
  })
})

describe('a bulk load that was killed', () => {
  it('is repaired by the next process that opens the file once its lease has run out, not before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finctl-bulk-'))
    try {
      const database = join(dir, 'finctl.db')
      await (await openSqliteStore(database)).close()
      const kill = (lease: Date) => {
        const db = new Database(database)
        db.exec(`DROP INDEX IF EXISTS ${AMOUNT_INDEX}`)
        db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(LEASE, lease.toISOString())
        db.close()
      }
      kill(new Date(Date.now() + 60_000))
      await (await openSqliteStore(database)).close()
      expect(inspect(database).index).toBe(false)
      kill(new Date(Date.now() - 1000))
      await (await openSqliteStore(database)).close()
      expect(inspect(database)).toEqual({ index: true, lease: undefined })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
