// Route groups load on their first request (src/api/app.ts): each documented route belongs to
// exactly one group, and a group loaded late answers as one loaded first.
import { describe, expect, it } from 'vitest'
import { ROUTE_GROUP_PREFIXES, groupOf, pathOf } from '../../src/api/app.js'
import { createHarness } from '../helpers/harness.js'

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

describe('route groups', () => {
  it('put every documented route under exactly one group prefix', async () => {
    const h = await createHarness('embedded')
    try {
      const doc = (await (await h.raw('GET', '/openapi.json')).json()) as { paths: Record<string, unknown> }
      const paths = Object.keys(doc.paths)
      expect(paths.length).toBeGreaterThanOrEqual(30)
      for (const path of paths) {
        expect(
          ROUTE_GROUP_PREFIXES.filter((p) => under(path, p)),
          path,
        ).toHaveLength(1)
        expect(ROUTE_GROUP_PREFIXES[groupOf(path)], path).toBe(ROUTE_GROUP_PREFIXES.find((p) => under(path, p)))
      }
      // Every group has at least one documented route.
      for (const prefix of ROUTE_GROUP_PREFIXES)
        expect(
          paths.some((p) => under(p, prefix)),
          prefix,
        ).toBe(true)
    } finally {
      await h.close()
    }
  })

  it('tell a prefix from a longer name that starts with it', () => {
    expect(ROUTE_GROUP_PREFIXES[groupOf('/api-v1/categorization-rules/x')]).toBe('/api-v1/categorization-rules')
    expect(ROUTE_GROUP_PREFIXES[groupOf('/api-v1/categorization/model')]).toBe('/api-v1/categorization')
    expect(groupOf('/api-v1/transactionsX')).toBe(-1)
    expect(groupOf('/nowhere')).toBe(-1)
  })

  it("find a request's path as the router does: no query, percent-decoded", () => {
    expect(pathOf('http://h:1/api-v1/transactions?limit=5#x')).toBe('/api-v1/transactions')
    expect(pathOf('http://finctl.embedded/api%2Dv1/reports/summary')).toBe('/api-v1/reports/summary')
    expect(pathOf('http://h/bad%E0%A4%A')).toBe('/bad%E0%A4%A')
    expect(pathOf('http://h')).toBe('/')
  })

  it('answer the same whichever group a process calls first', async () => {
    // One core calls statements before transactions, the other the reverse; both list the same
    // transactions, record usage under route templates and 404 unknown paths with the envelope.
    const answers: unknown[] = []
    for (const order of [
      ['/api-v1/statements', '/api-v1/transactions'],
      ['/api-v1/transactions', '/api-v1/statements'],
    ]) {
      const h = await createHarness('embedded')
      try {
        const t = await h.tenant()
        const got: Record<string, unknown> = {}
        for (const path of order) {
          const res = await h.raw('GET', `${path}?limit=5`, { headers: { 'x-api-key': t.key } })
          got[path] = { status: res.status, data: ((await res.json()) as { data: unknown[] }).data.length }
        }
        const missing = await h.raw('GET', '/api-v1/transactions/a/b/c', { headers: { 'x-api-key': t.key } })
        got.missing = { status: missing.status, code: ((await missing.json()) as { error: { code: string } }).error.code }
        const usage = (await (await h.raw('GET', '/api-keys/me/usage', { headers: { 'x-api-key': t.key } })).json()) as {
          data: { endpoints: Record<string, number> }
        }
        got.endpoints = Object.keys(usage.data.endpoints).sort()
        answers.push(got)
      } finally {
        await h.close()
      }
    }
    expect(answers[0]).toEqual(answers[1])
    expect((answers[0] as { endpoints: string[] }).endpoints).toEqual(
      expect.arrayContaining(['/api-v1/statements', '/api-v1/transactions']),
    )
    expect((answers[0] as { missing: unknown }).missing).toEqual({ status: 404, code: 'not_found' })
  })

  it('answer reads and writes of a group with its writes apart in either order', async () => {
    // The transactions' writes load with the first request that is not a GET: a write before any
    // read, and a read before any write, answer as a core with both loaded.
    for (const first of ['write', 'read'] as const) {
      const h = await createHarness('embedded')
      try {
        const t = await h.tenant()
        const headers = { 'x-api-key': t.key, 'content-type': 'application/json' }
        const write = async () => {
          const body = JSON.stringify({ bank_account_id: t.accountId, transaction_date: '2026-01-05', amount: '12.34', description: 'x' })
          const res = await h.raw('POST', '/api-v1/transactions', { headers, body })
          expect(res.status, `${first}: ${await res.clone().text()}`).toBe(201)
          return ((await res.json()) as { data: { id: string } }).data.id
        }
        const read = async () => {
          const res = await h.raw('GET', '/api-v1/transactions?limit=5', { headers })
          expect(res.status, first).toBe(200)
          return ((await res.json()) as { data: Array<{ id: string }> }).data.map((r) => r.id)
        }
        if (first === 'write') {
          const id = await write()
          expect(await read()).toEqual([id])
        } else {
          expect(await read()).toEqual([])
          const id = await write()
          expect(await read()).toEqual([id])
          const detail = await h.raw('GET', `/api-v1/transactions/${id}`, { headers })
          expect(detail.status).toBe(200)
        }
        // A method no route of the group has is still a 404 with the envelope.
        const missing = await h.raw('PUT', '/api-v1/transactions', { headers, body: '{}' })
        expect(missing.status, first).toBe(404)
      } finally {
        await h.close()
      }
    }
  })
})
