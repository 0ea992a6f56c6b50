/**
 * An answer waits for its writes' COMMIT (api/middleware/durable.ts): on SQLite a request's take
 * and insert resolve inside the group commit's open transaction, so a COMMIT that fails after them
 * must turn the answer into the error, with nothing of the request written. The COMMIT is made to
 * fail in process (the embedded transport), as a disk that fills while the WAL is appended would.
 */
import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../helpers/harness.js'

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3
const exec = Database.prototype.exec

let h: Harness | undefined
afterEach(async () => {
  Database.prototype.exec = exec
  await h?.close()
  h = undefined
})

/** Fail the COMMIT of a transaction that adds to the `before` rows of `transactions` (the POST's insert). */
function failCommitsOfInserts(before: number): { failed: number } {
  const seen = { failed: 0 }
  Database.prototype.exec = function (this: BetterSqlite3.Database, source: string) {
    if (source === 'COMMIT' && this.inTransaction) {
      const { n } = this.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }
      if (n > before) {
        seen.failed++
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
      }
    }
    return exec.call(this, source)
  } as typeof exec
  return seen
}

describe('answers after the COMMIT (embedded, sqlite)', () => {
  it('a POST whose COMMIT fails answers database_full, and neither its row nor its event is there', async () => {
    h = await createHarness('embedded', 'sqlite', { own: true })
    const t = await h.tenant()
    const body = (description: string) => ({
      bank_account_id: t.accountId,
      transaction_date: '2026-03-02',
      amount: '-12.34',
      currency_code: 'USD',
      description,
    })
    const post = (description: string) =>
      h!.raw('POST', '/api-v1/transactions', {
        headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
        body: JSON.stringify(body(description)),
      })
    const count = async () => (await sql<{ n: number }>`SELECT count(*) AS n FROM transactions`.execute(h!.store.db)).rows[0].n
    const seen = failCommitsOfInserts(await count())
    const res = await post('Lost with its COMMIT')
    const answer = (await res.json()) as { error?: { code?: string } }
    expect(seen.failed).toBe(1)
    expect(res.status).toBe(507)
    expect(answer.error?.code).toBe('database_full')

    Database.prototype.exec = exec
    const rows = await h.client({ apiKey: t.key }).transactions.list({ limit: 100 })
    expect(rows.data.map((r) => r.description)).not.toContain('Lost with its COMMIT')
    const events = await sql<{ n: number }>`SELECT count(*) AS n FROM events WHERE data LIKE '%Lost with its COMMIT%'`.execute(h.store.db)
    expect(events.rows[0].n).toBe(0)

    // The next POST goes in and is answered as written.
    const ok = await post('Written')
    expect(ok.status).toBe(201)
    const after = await h.client({ apiKey: t.key }).transactions.list({ limit: 100 })
    expect(after.data.map((r) => r.description)).toContain('Written')
  })
})
