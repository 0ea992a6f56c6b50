// The embedded transport with the core on a worker thread (src/embedded/embedded-thread.ts), which
// `tx import` uses: the same app and answers as the in-process one, usage written at close.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openEmbeddedThread } from '../../src/embedded/embedded-thread.js'
import { createHarness } from '../helpers/harness.js'

const BASE = 'http://finctl.embedded'

describe('embedded transport on a thread', () => {
  it('answers as the in-process transport does, and records usage by close', async () => {
    const h = await createHarness('embedded')
    const t = await h.tenant()
    const database = h.database

    const thread = await openEmbeddedThread(database)
    try {
      const client = new Client({ baseUrl: BASE, fetch: thread.fetch, apiKey: t.key, maxRetries: 0 })
      const created = await client.transactions.create({
        bank_account_id: t.accountId,
        transaction_date: '2026-11-02',
        amount: '-12.34',
        description: 'Coffee',
      })
      expect(created).toMatchObject({ amount: -12.34, status: 'pending', description: 'Coffee' })
      const batch = await client.transactions.batch([
        { bank_account_id: t.accountId, transaction_date: '2026-11-03', amount: 5, description: 'A' },
        { bank_account_id: t.accountId, transaction_date: 'not a date', amount: 5, description: 'B' },
      ])
      expect(batch.created).toHaveLength(1)
      expect(batch.errors[0]).toMatchObject({ index: 1 })
      const missing = await thread.fetch(`${BASE}/api-v1/nowhere`, { method: 'GET', headers: { 'x-api-key': t.key } })
      expect(missing.status).toBe(404)
      expect(missing.headers.get('x-request-id')).toBeTruthy()
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found')
      const bad = await thread.fetch(`${BASE}/api-v1/transactions`, {
        method: 'POST',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
        body: '{not json',
      })
      expect(bad.status).toBe(400)
    } finally {
      await thread.close()
    }

    // What the thread recorded is in the database once it has closed: its 4 requests with the key.
    try {
      const rows = await h.store.db
        .selectFrom('api_requests')
        .select(['method', 'endpoint', 'status_code'])
        .where('key_id', '=', t.keyId)
        .where('endpoint', '!=', '/api-v1/bank-accounts')
        .orderBy('id')
        .execute()
      expect(rows).toEqual([
        { method: 'POST', endpoint: '/api-v1/transactions', status_code: 201 },
        { method: 'POST', endpoint: '/api-v1/transactions/batch', status_code: 201 },
        { method: 'GET', endpoint: '/api-v1/nowhere', status_code: 404 },
        { method: 'POST', endpoint: '/api-v1/transactions', status_code: 400 },
      ])
    } finally {
      await h.close()
    }
  })

  it('fails to open a file that is not a database, with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finctl-thread-'))
    try {
      const file = join(dir, 'not.db')
      writeFileSync(file, 'this is not a SQLite database, it is long enough to have a header '.repeat(20))
      await expect(openEmbeddedThread(file)).rejects.toThrow(/not a database|file is not/i)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
