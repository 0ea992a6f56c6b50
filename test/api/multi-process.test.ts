/**
 * Two `finctl serve` processes sharing one database (PostgreSQL, and a SQLite file too):
 * rate limits and usage statistics stay exact across them; SIGTERM under load loses no
 * acknowledged write.
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID, scryptSync } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import { LOGIN_LIMITS } from '../../src/domain/api-keys/login-limits.js'
import { openStore } from '../../src/store/open-store.js'
import type { Store } from '../../src/store/store.js'
import { inOneMinute, freshPostgres, startServeProcess, stopProcess, STORES, type StoreKind } from '../helpers/harness.js'

interface Cluster {
  store: Store
  urls: string[]
  children: ChildProcess[]
  token: string
  key: string
  accountId: string
  remote: ReturnType<typeof openRemote>
  client(url: string, creds: { apiKey?: string; token?: string }): Client
  close(): Promise<void>
}

async function startCluster(storeKind: StoreKind, processes = 2): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'finctl-cluster-'))
  let database = join(dir, 'finctl.db')
  let drop = async () => {}
  if (storeKind === 'postgres') {
    const pg = await freshPostgres()
    database = pg.url
    drop = pg.drop
  }
  const store = await openStore(database, { poolSize: 2 })
  const email = `owner-${process.pid}-${Date.now()}@cluster.test`
  await bootstrapCompany(store, { name: 'Cluster Co', baseCurrency: 'USD', email, password: 'correct horse battery' }, new Date())
  const started = await Promise.all(Array.from({ length: processes }, () => startServeProcess(database)))
  const remote = openRemote({ connections: 32 })
  const client = (url: string, creds: { apiKey?: string; token?: string }) =>
    new Client({ baseUrl: url, fetch: remote.fetch, maxRetries: 0, ...creds })
  const urls = started.map((s) => s.url)
  const token = (await client(urls[0], {}).token(email, 'correct horse battery')).access_token
  const k = await client(urls[urls.length - 1], { token }).keys.create({
    name: 'cluster',
    scopes: ['read', 'write', 'transactions'],
    rate_limit_per_minute: 100_000,
    rate_limit_per_day: 1_000_000,
  })
  const account = await client(urls[0], { apiKey: k.key }).accounts.create({
    name: 'Shared',
    account_type: 'checking',
    currency_code: 'USD',
  })
  return {
    store,
    urls,
    children: started.map((s) => s.child),
    token,
    key: k.key,
    accountId: account.id,
    remote,
    client,
    async close() {
      await Promise.all(started.map((s) => stopProcess(s.child)))
      await remote.close()
      await store.close()
      await drop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

describe.each(STORES)('two serve processes on one %s database', (storeKind) => {
  let c: Cluster
  beforeAll(async () => {
    c = await startCluster(storeKind)
  })
  afterAll(async () => {
    await c?.close()
  })

  // Linux shows a process's arguments in /proc: each server started itself again with the young
  // generation chosen for its database (src/server.ts): 8 MB semi-spaces on PostgreSQL, 2 MB on SQLite.
  if (existsSync('/proc/self/cmdline'))
    it('each process runs with the young generation of its database', () => {
      const want = storeKind === 'postgres' ? 8 : 2
      for (const child of c.children)
        expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toContain(`--max-semi-space-size=${want}`)
    })

  it('a per-minute limit of N accepts exactly N requests spread over both processes', async () => {
    const limit = 25
    const statuses = await inOneMinute(async () => {
      const k = await c.client(c.urls[0], { token: c.token }).keys.create({ name: 'limit', scopes: ['read'], rate_limit_per_minute: limit })
      return Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          c.remote.fetch(`${c.urls[i % 2]}/api-v1/bank-accounts`, { method: 'GET', headers: { 'x-api-key': k.key } }).then(async (r) => {
            await r.arrayBuffer()
            return r.status
          }),
        ),
      )
    })
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit)
    expect(statuses.filter((s) => s === 429)).toHaveLength(80 - limit)
  })

  it('login attempts of one email are counted across both processes: exactly the limit answered 401, the rest 429', async () => {
    // A user of a cheap hash, so that the guesses cost little time.
    const email = `guessed-${Date.now()}@cluster.test`
    const salt = randomBytes(16)
    const hash = scryptSync('right', salt, 32, { N: 1024, r: 8, p: 1 })
    const company = await c.store.db.selectFrom('companies').select('id').executeTakeFirstOrThrow()
    await c.store.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        company_id: company.id,
        email,
        password_hash: `scrypt$1024$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`,
        role: 'owner',
        created_at: new Date().toISOString(),
      })
      .execute()
    const statuses = await inOneMinute(async () => {
      await c.store.db.deleteFrom('login_counters').execute()
      await c.store.db.deleteFrom('login_failures').where('email', '=', email).execute()
      return Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          c.remote
            .fetch(`${c.urls[i % 2]}/auth/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email, password: `guess ${i}` }),
            })
            .then(async (r) => {
              await r.arrayBuffer()
              return r.status
            }),
        ),
      )
    })
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perEmail)
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LOGIN_LIMITS.perEmail)
    const failures = await c.store.db.selectFrom('login_failures').select('email').where('email', '=', email).execute()
    expect(failures).toHaveLength(LOGIN_LIMITS.perEmail)
  })

  it('an Idempotency-Key replayed concurrently against both processes creates exactly one transaction', async () => {
    const idem = `cluster-${Date.now()}`
    const body = JSON.stringify({
      bank_account_id: c.accountId,
      transaction_date: '2026-06-02',
      description: `idem ${idem}`,
      amount: '9.99',
    })
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        c.remote
          .fetch(`${c.urls[i % 2]}/api-v1/transactions`, {
            method: 'POST',
            headers: { 'x-api-key': c.key, 'content-type': 'application/json', 'idempotency-key': idem },
            body,
          })
          .then(async (r) => ({ status: r.status, id: ((await r.json()) as { data: { id: string } }).data.id })),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201))
    expect(new Set(answers.map((a) => a.id)).size).toBe(1)
    const rows = await c.store.db.selectFrom('transactions').select('id').where('description', '=', `idem ${idem}`).execute()
    expect(rows).toHaveLength(1)
  })

  it('a bulk update racing a PATCH on the same transactions loses neither change', async () => {
    const c0 = c.client(c.urls[0], { apiKey: c.key })
    const c1 = c.client(c.urls[1], { apiKey: c.key })
    const txs = await c0.transactions.batch(
      Array.from({ length: 10 }, (_, i) => ({
        bank_account_id: c.accountId,
        transaction_date: '2026-06-03',
        description: `race ${i}`,
        amount: '1.00',
      })),
    )
    const ids = txs.created.map((t) => t.id)
    // Each round: process 1 adds a tag to all ten while process 0 changes each one's category.
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        c1.transactions.bulkUpdate({ transaction_ids: ids, updates: { add_tags: [`bulk${round}`] } }),
        ...ids.map((id) => c0.transactions.update(id, { category: `patched${round}`, merchant_name: `m${round}` })),
      ])
    }
    for (const id of ids) {
      const t = await c0.transactions.get(id)
      expect(t.tags).toEqual(['bulk0', 'bulk1', 'bulk2', 'bulk3', 'bulk4'])
      expect(t).toMatchObject({ category: 'patched4', merchant_name: 'm4' })
      // every change is in the history, in an order consistent with the final state
      expect(t.history.filter((e) => e.action === 'bulk_update')).toHaveLength(5)
      expect(t.history.filter((e) => e.action === 'update')).toHaveLength(5)
    }
  })

  it('usage statistics count every request made through either process exactly', async () => {
    const k = await c.client(c.urls[1], { token: c.token }).keys.create({ name: 'usage', scopes: ['read', 'write'] })
    const body = { bank_account_id: c.accountId, transaction_date: '2026-06-01', description: 'spread', amount: '2.50' }
    const work: Array<Promise<unknown>> = []
    for (let i = 0; i < 30; i++) work.push(c.client(c.urls[i % 2], { apiKey: k.key }).request('POST', '/api-v1/transactions', { body }))
    for (let i = 0; i < 12; i++) work.push(c.client(c.urls[(i + 1) % 2], { apiKey: k.key }).accounts.list())
    await Promise.all(work)
    for (const url of c.urls) {
      const u = await c.client(url, { token: c.token }).keys.usage({ keyId: k.id })
      expect(u.total_requests).toBe(42)
      expect(u.endpoints).toEqual({ '/api-v1/transactions': 30, '/api-v1/bank-accounts': 12 })
      expect(u.status_codes).toEqual({ '201': 30, '200': 12 })
    }
    const me = await c.client(c.urls[0], { apiKey: k.key }).keys.me()
    expect(me.usage_count).toBe(42)
  })

  it('a usage read right after a request answered by the other process counts it', async () => {
    // One request at a time, each read at once on the other process: a record still held in
    // memory (or written on a timer) by the process that answered would be missed.
    const k = await c.client(c.urls[0], { token: c.token }).keys.create({ name: 'at once', scopes: ['read'] })
    for (let i = 1; i <= 6; i++) {
      const [from, to] = i % 2 ? [c.urls[0], c.urls[1]] : [c.urls[1], c.urls[0]]
      await c.client(from, { apiKey: k.key }).accounts.list()
      const u = await c.client(to, { token: c.token }).keys.usage({ keyId: k.id })
      expect(u.total_requests).toBe(i)
      expect(u.endpoints).toEqual({ '/api-v1/bank-accounts': i })
    }
    // GET /api-keys/me counts the key's requests on both processes, the ones before it (not itself)
    const me = await c.client(c.urls[1], { apiKey: k.key }).keys.me()
    expect(me.usage_count).toBe(6)
  })
})

describe.each(STORES)('graceful shutdown on %s', (storeKind) => {
  it('SIGTERM during load finishes requests in flight and loses no acknowledged write', async () => {
    const c = await startCluster(storeKind, 1)
    try {
      const url = c.urls[0]
      const acknowledged: string[] = []
      let failures = 0
      let stopped = false
      const worker = async (w: number) => {
        for (let i = 0; i < 400 && !stopped; i++) {
          try {
            const t = await c.client(url, { apiKey: c.key }).transactions.create({
              bank_account_id: c.accountId,
              transaction_date: '2026-07-01',
              description: `load ${w}-${i}`,
              amount: '1.00',
            })
            acknowledged.push(t.id)
          } catch {
            failures++
            if (failures > 5) return
          }
        }
      }
      const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))
      // Stop while the load is well under way (not at a fixed time: CI machines vary).
      for (let waited = 0; acknowledged.length < 40 && waited < 15_000; waited += 20) await new Promise((r) => setTimeout(r, 20))
      const exit = stopProcess(c.children[0], 'SIGTERM')
      const code = await exit
      stopped = true
      await load
      expect(code).toBe(0)
      expect(acknowledged.length).toBeGreaterThan(10)
      const rows = await c.store.db.selectFrom('transactions').select('id').where('description', 'like', 'load %').execute()
      const stored = new Set(rows.map((r) => c.store.tx.idText(r.id)))
      for (const id of acknowledged) expect(stored.has(id)).toBe(true)
      // usage records of every answered request were flushed before the process exited
      const [{ n }] = await c.store.db
        .selectFrom('api_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('endpoint', '=', '/api-v1/transactions')
        .execute()
      expect(Number(n)).toBeGreaterThanOrEqual(acknowledged.length)
    } finally {
      await c.close()
    }
  })
})
