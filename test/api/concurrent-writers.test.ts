/**
 * Writers at once on one database, each store: two `finctl serve` processes on one SQLite file or one
 * PostgreSQL schema, two imports' bulk loads into one account through them at once (a third of their
 * refs the same), beside updates, bulk updates and reports. Every answer a success, every row once:
 * count, sum and the account's balance exact.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import type { CreateTransactionRequest } from '../../src/domain/schemas.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import { toMinor } from '../../src/kernel/money.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import { freshPostgres, startServeProcess, stopProcess, STORES } from '../helpers/harness.js'

const LOAD = 3000
const BATCH = 500

describe.each(STORES)('writers at once on one %s database, through two serve processes', (storeKind) => {
  let dir: string
  let store: Store
  let children: ChildProcess[] = []
  let remote: ReturnType<typeof openRemote>
  let clients: Client[]
  let drop = async () => {}

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-writers-'))
    let database = join(dir, 'finctl.db')
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    store = await openStore(database, { poolSize: 2 })
    const email = `owner-${process.pid}@writers.test`
    await bootstrapCompany(store, { name: 'Writers Co', baseCurrency: 'USD', email, password: 'correct horse battery' }, new Date())
    // Loads of 3,000 rows set the SQLite indexes aside here, as 10,000 would by default.
    const started = await Promise.all([0, 1].map(() => startServeProcess(database, { FINCTL_BULK_LOAD_MIN_ROWS: '1000' })))
    children = started.map((s) => s.child)
    remote = openRemote({ connections: 16 })
    const anon = new Client({ baseUrl: started[0].url, fetch: remote.fetch, maxRetries: 0 })
    const token = (await anon.token(email, 'correct horse battery')).access_token
    const { key } = await new Client({ baseUrl: started[1].url, fetch: remote.fetch, token, maxRetries: 0 }).keys.create({
      name: 'writers',
      scopes: ['read', 'write', 'transactions'],
      rate_limit_per_minute: 1_000_000,
      rate_limit_per_day: 100_000_000,
    })
    clients = started.map((s) => new Client({ baseUrl: s.url, fetch: remote.fetch, apiKey: key, maxRetries: 0 }))
  })
  afterAll(async () => {
    await Promise.all(children.map((c) => stopProcess(c)))
    await remote?.close()
    await store?.close()
    await drop()
    rmSync(dir, { recursive: true, force: true })
  })

  const rows = (account: string, from: number): CreateTransactionRequest[] =>
    Array.from({ length: LOAD }, (_, k) => {
      const i = from + k
      return {
        bank_account_id: account,
        import_ref: `file.${i}`,
        transaction_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        description: `row ${i}`,
        amount: `-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')}`,
      }
    })
  /** One import's batches in order, its last one ending the load (as `tx import` sends them). */
  const load = async (c: Client, items: CreateTransactionRequest[]) => {
    let created = 0
    for (let i = 0; i < items.length; i += BATCH) {
      const last = i + BATCH >= items.length
      created += (await c.transactions.batchMinimal(items.slice(i, i + BATCH), { bulkRows: items.length, bulkEnd: last })).created.length
    }
    return created
  }

  it('two loads into one account at once, beside updates, bulk updates and reports: every row once', async () => {
    const [c0, c1] = clients
    const account = (
      await c0.accounts.create({ name: 'Shared', account_type: 'checking', currency_code: 'USD', opening_balance: '1000.00' })
    ).id
    const seeded = await c1.transactions.batch(
      Array.from({ length: 20 }, (_, i) => ({
        bank_account_id: account,
        transaction_date: '2025-01-02',
        description: `seed ${i}`,
        amount: '-1.00',
      })),
    )
    const ids = seeded.created.map((t) => t.id)
    const a = rows(account, 0)
    // A third of its refs the same as `a`'s (an export that overlaps the one before).
    const b = rows(account, LOAD - LOAD / 3)
    let loading = true
    const side = (async () => {
      let n = 0
      for (; loading || n < 3; n++) {
        await Promise.all([
          c1.transactions.update(ids[n % ids.length], { category: `Round ${n}` }),
          c0.transactions.bulkUpdate({ transaction_ids: ids, updates: { merchant_name: `M${n}` } }),
          c1.reports.summary({}),
        ])
      }
      return n
    })()
    const loads = await Promise.allSettled([load(c0, a), load(c1, b)])
    loading = false
    const rounds = await side
    const [createdA, createdB] = loads.map((l) => {
      if (l.status === 'rejected') throw l.reason
      return l.value
    })

    const distinct = new Map([...a, ...b].map((r) => [r.import_ref!, r.amount as string]))
    expect(createdA + createdB).toBe(distinct.size)
    let sum = -20 * 100
    for (const amount of distinct.values()) sum += toMinor(amount, 'USD')
    const stored = await store.db
      .selectFrom('transactions')
      .innerJoin('bank_accounts', 'bank_accounts.key', 'transactions.account_key')
      .where('bank_accounts.id', '=', account)
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.count('transactions.import_ref').distinct().as('refs'),
        eb.fn.sum('transactions.amount').as('sum'),
      ])
      .executeTakeFirstOrThrow()
    expect({ n: Number(stored.n), refs: Number(stored.refs), sum: Number(stored.sum) }).toEqual({
      n: distinct.size + 20,
      refs: distinct.size,
      sum,
    })
    const got = await c0.accounts.get(account)
    expect(toMinor(String(got.current_balance), 'USD')).toBe(100_000 + sum)
    const after = await Promise.all(ids.map((id) => c0.transactions.get(id)))
    expect(after.map((t) => t.merchant_name)).toEqual(ids.map(() => `M${rounds - 1}`))
  }, 360_000)
})
