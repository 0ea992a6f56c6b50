/**
 * A database that cannot take a request, through both transports: locked by another process past
 * the service's wait (FINCTL_BUSY_TIMEOUT_MS) is a 503 with Retry-After that the client retries like
 * a 429; a damaged file a 503 whose writes are refused. The embedded core names the file (its user
 * owns it); `finctl serve` does not (its log does). Never a 500, never a stack trace.
 */
import Database from 'better-sqlite3'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client, type FetchLike } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { bootstrapCompany } from '../../src/domain/accounts/companies.js'
import { openEmbedded } from '../../src/embedded/embedded.js'
import { openStore } from '../../src/store/open-store.js'
import { startServeProcess, stopProcess, TRANSPORTS, type TransportKind } from '../helpers/harness.js'

interface Service {
  baseUrl: string
  fetch: FetchLike
  close(): Promise<void>
}

async function startService(kind: TransportKind, database: string, env: Record<string, string>): Promise<Service> {
  if (kind === 'embedded') {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
    Object.assign(process.env, env)
    try {
      const t = await openEmbedded(database)
      return { baseUrl: 'http://finctl.embedded', fetch: t.fetch, close: t.close }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  }
  const { url, child } = await startServeProcess(database, env)
  const remote = openRemote()
  return {
    baseUrl: url,
    fetch: remote.fetch,
    close: async () => {
      await remote.close()
      await stopProcess(child)
    },
  }
}

describe.each(TRANSPORTS)('store errors over %s', (kind) => {
  let dir: string
  let database: string
  let service: Service | undefined
  let key: string
  let accountId: string

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-store-errors-'))
    database = join(dir, 'finctl.db')
    const store = await openStore(database)
    const email = `owner-${kind}@errors.test`
    await bootstrapCompany(store, { name: 'Errors Co', baseCurrency: 'USD', email, password: 'correct horse battery' }, new Date())
    await store.close()
    service = await startService(kind, database, { FINCTL_BUSY_TIMEOUT_MS: '300' })
    const anon = new Client({ baseUrl: service.baseUrl, fetch: service.fetch, maxRetries: 0 })
    const token = (await anon.token(email, 'correct horse battery')).access_token
    key = (
      await new Client({ baseUrl: service.baseUrl, fetch: service.fetch, token, maxRetries: 0 }).keys.create({
        name: 'all',
        scopes: ['read', 'write', 'transactions'],
        rate_limit_per_minute: 100_000,
      })
    ).key
    accountId = (await client(0).accounts.create({ name: 'Operating', account_type: 'checking', currency_code: 'USD' })).id
  })
  afterEach(async () => {
    await service?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const client = (maxRetries: number, sleep?: (ms: number) => Promise<void>) =>
    new Client({ baseUrl: service!.baseUrl, fetch: service!.fetch, apiKey: key, maxRetries, sleep })
  const create = (description: string) => ({ bank_account_id: accountId, transaction_date: '2026-01-05', description, amount: '-12.34' })

  it('a lock held past the wait: 503 database_busy with Retry-After, nothing written', async () => {
    const other = new Database(database)
    other.exec('BEGIN IMMEDIATE')
    try {
      const res = await service!.fetch(`${service!.baseUrl}/api-v1/transactions`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(create('locked out')),
      })
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      const body = (await res.json()) as { success: boolean; error: { code: string; message: string } }
      expect(body.success).toBe(false)
      expect(body.error.code).toBe('database_busy')
      expect(body.error.message).toMatch(/locked by another process.*nothing was written/)
      if (kind === 'embedded') expect(body.error.message).toContain(database)
      else expect(body.error.message).not.toContain(dir)
      expect(body.error.message).not.toMatch(/\n\s+at /)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect((await client(0).transactions.list({ bank_account_id: accountId })).data).toHaveLength(0)
  })

  it('the client retries a 503 with Retry-After like a 429: the write lands once the lock is let go', async () => {
    const other = new Database(database)
    other.exec('BEGIN IMMEDIATE')
    const waits: number[] = []
    const sleep = async (ms: number) => {
      waits.push(ms)
      // The other process finishes while the client waits.
      if (waits.length === 1) other.exec('COMMIT')
      await new Promise((r) => setTimeout(r, 10))
    }
    try {
      const created = await client(2, sleep).transactions.create(create('after the wait'))
      expect(created.description).toBe('after the wait')
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    }
    expect(waits).toEqual([1000])
    expect((await client(0).transactions.list({ bank_account_id: accountId })).data).toHaveLength(1)
    // Without retries the answer is the error, as a 429's is.
    const held = new Database(database)
    held.exec('BEGIN IMMEDIATE')
    try {
      await expect(client(0).transactions.create(create('no retry'))).rejects.toMatchObject({
        code: 'database_busy',
        status: 503,
        retryAfter: 1,
      })
    } finally {
      held.exec('ROLLBACK')
      held.close()
    }
  })

  it('a damaged file: 503 database_damaged on the read that finds it, and every write refused after', async () => {
    const c = client(0)
    await c.transactions.batch(Array.from({ length: 2000 }, (_, i) => create(`row ${i} ${'x'.repeat(100)}`)))
    await service!.close()
    service = undefined
    const raw = new Database(database)
    const page = raw
      .prepare(`SELECT pageno FROM dbstat WHERE name = 'transactions' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3`)
      .pluck()
      .get() as number
    const size = raw.pragma('page_size', { simple: true }) as number
    raw.pragma('wal_checkpoint(TRUNCATE)')
    raw.close()
    const fd = openSync(database, 'r+')
    writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (page - 1) * size)
    closeSync(fd)
    service = await startService(kind, database, {})

    // Every page, until the one on the damaged part of the file.
    let answer: Response
    let cursor = ''
    for (;;) {
      answer = await service.fetch(`${service.baseUrl}/api-v1/transactions?limit=500${cursor}`, {
        method: 'GET',
        headers: { 'x-api-key': key },
      })
      if (answer.status !== 200) break
      const next = ((await answer.json()) as { pagination: { next_cursor: string | null } }).pagination.next_cursor
      expect(next, 'every page read, none damaged').not.toBeNull()
      cursor = `&cursor=${next}`
    }
    const body = (await answer.json()) as { error?: { code: string; message: string } }
    expect(answer.status).toBe(503)
    expect(body.error?.code).toBe('database_damaged')
    if (kind === 'embedded') expect(body.error?.message).toContain(database)
    else expect(body.error?.message).toMatch(/the service's database is damaged.*finctl doctor/)
    await expect(client(0).transactions.create(create('into a damaged file'))).rejects.toMatchObject({
      code: 'database_damaged',
      status: 503,
    })
    await expect(client(0).accounts.create({ name: 'Another', account_type: 'savings', currency_code: 'USD' })).rejects.toMatchObject({
      code: 'database_damaged',
    })
  })
})
