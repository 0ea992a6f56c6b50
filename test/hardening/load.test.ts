/**
 * Load: 2,000 requests (10,000 with FINCTL_SOAK=1) from 50 concurrent clients with several keys,
 * mixed creates and reads, against a real `finctl serve`. Zero 5xx, zero lost writes (every 201's
 * id is there), and each key's usage statistics count exactly the requests it made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRemote } from '../../src/client/remote.js'
import { createHarness, STORES, type Harness, type Tenant } from '../helpers/harness.js'
import { expectSqliteHealthy, expectWellFormed, send, SOAK } from './lib.js'

const TOTAL = SOAK ? 10_000 : 2_000
const CLIENTS = 50
const KEYS = 5

describe.each(STORES)('load on finctl serve (%s)', (storeKind) => {
  let h: Harness
  let a: Tenant
  let remote: ReturnType<typeof openRemote>
  beforeAll(async () => {
    h = await createHarness('http', storeKind)
    a = await h.tenant('Load')
    remote = openRemote({ connections: CLIENTS, timeoutMs: 30_000 })
  })
  afterAll(async () => {
    await remote?.close()
    await h?.close()
  })

  it(
    `${TOTAL} mixed requests from ${CLIENTS} clients: no 5xx, no lost write, exact usage per key`,
    async () => {
      const admin = h.client({ token: a.token })
      const keys = await Promise.all(
        Array.from({ length: KEYS }, (_, i) =>
          admin.keys.create({
            name: `load ${i}`,
            scopes: ['read', 'write', 'transactions'],
            rate_limit_per_minute: 1_000_000,
            rate_limit_per_day: 100_000_000,
          }),
        ),
      )
      const sent = new Map<string, number>(keys.map((k) => [k.id, 0]))
      const statusByKey = new Map<string, Map<number, number>>(keys.map((k) => [k.id, new Map()]))
      const created = new Set<string>()
      const statuses = new Map<number, number>()
      let next = 0

      const client = async (c: number) => {
        const k = keys[c % KEYS]
        const headers = { 'x-api-key': k.key }
        for (let n = next++; n < TOTAL; n = next++) {
          const kind = n % 20
          let path = '/api-v1/transactions'
          let method = 'GET'
          let body: unknown
          if (kind < 8) {
            method = 'POST'
            body = {
              bank_account_id: a.accountId,
              transaction_date: `2026-10-${String((n % 28) + 1).padStart(2, '0')}`,
              description: `load ${n}`,
              amount: `${(n % 500) - 250}.${String(n % 100).padStart(2, '0')}`,
              tags: [`c${c}`],
            }
          } else if (kind === 8) {
            method = 'POST'
            path = '/api-v1/transactions/batch'
            body = {
              transactions: Array.from({ length: 5 }, (_, j) => ({
                bank_account_id: a.accountId,
                transaction_date: '2026-10-15',
                description: `load batch ${n}-${j}`,
                amount: `${j}.50`,
              })),
            }
          } else if (kind < 15) {
            path = `/api-v1/transactions?limit=20&sort=${kind % 2 ? 'amount' : '-transaction_date'}`
          } else if (kind < 18) {
            const ids = [...created]
            path = `/api-v1/transactions/${ids.length ? ids[n % ids.length] : a.accountId}`
          } else if (kind === 18) {
            path = `/api-v1/bank-accounts/${a.accountId}`
          } else {
            path = '/api-v1/categories'
          }
          const r = await send(
            remote.fetch,
            h.baseUrl + path,
            {
              method,
              headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
              body: body ? JSON.stringify(body) : undefined,
            },
            30_000,
          )
          sent.set(k.id, sent.get(k.id)! + 1)
          const byKey = statusByKey.get(k.id)!
          byKey.set(r.status, (byKey.get(r.status) ?? 0) + 1)
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
          expectWellFormed(r, `${method} ${path}`)
          if (r.status === 201) {
            if (path === '/api-v1/transactions') created.add(r.body.data.id)
            else for (const t of r.body.data.created) created.add(t.id)
          }
        }
      }
      const started = Date.now()
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
      const seconds = (Date.now() - started) / 1000

      const fiveHundreds = [...statuses].filter(([s]) => s >= 500)
      expect(fiveHundreds).toEqual([])
      expect([...sent.values()].reduce((x, y) => x + y, 0)).toBe(TOTAL)
      // Reads of a not-yet-created id at the very start may be 404; everything else succeeds.
      expect(statuses.get(201)).toBe(Math.ceil((TOTAL * 9) / 20))
      expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0) + (statuses.get(404) ?? 0)).toBe(TOTAL)
      expect(statuses.get(404) ?? 0).toBeLessThan(CLIENTS)

      // No lost write: every acknowledged id is listed (read with the JWT, so no key's usage moves).
      const listed = new Set<string>()
      let cursor: string | null = null
      do {
        const page = await send(
          remote.fetch,
          `${h.baseUrl}/api-v1/transactions?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { method: 'GET', headers: { authorization: `Bearer ${a.token}` } },
        )
        expect(page.status).toBe(200)
        for (const t of page.body.data) listed.add(t.id)
        cursor = page.body.pagination.next_cursor
      } while (cursor)
      const missing = [...created].filter((id) => !listed.has(id))
      expect(missing).toEqual([])
      expect(created.size).toBe(Math.ceil((TOTAL * 8) / 20) + Math.ceil(TOTAL / 20) * 5)
      expect(listed.size).toBe(created.size)

      // Usage statistics: exactly what each key sent, by status too.
      for (const k of keys) {
        const u = await send(remote.fetch, `${h.baseUrl}/api-keys/${k.id}/usage`, {
          method: 'GET',
          headers: { authorization: `Bearer ${a.token}` },
        })
        expect(u.status).toBe(200)
        expect(u.body.data.total_requests, `key ${k.name}`).toBe(sent.get(k.id))
        const endpoints = Object.values(u.body.data.endpoints as Record<string, number>).reduce((x, y) => x + y, 0)
        expect(endpoints).toBe(sent.get(k.id))
        expect(u.body.data.status_codes).toEqual(Object.fromEntries([...statusByKey.get(k.id)!].map(([s, n]) => [String(s), n])))
      }
      if (storeKind === 'sqlite') expectSqliteHealthy(h.database)
      process.stderr.write(`load (${storeKind}): ${TOTAL} requests from ${CLIENTS} clients in ${seconds.toFixed(1)} s\n`)
    },
    SOAK ? 300_000 : 60_000,
  )
})
