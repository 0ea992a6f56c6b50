/** The production server: JSON access logs without secrets, /healthz, and a valid OpenAPI 3.1 document. */
import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, startServeProcess, stopProcess, type Harness, type Tenant } from '../helpers/harness.js'

describe('finctl serve logs', () => {
  let h: Harness
  let a: Tenant
  beforeAll(async () => {
    h = await createHarness('embedded')
    a = await h.tenant()
  })
  afterAll(async () => {
    await h?.close()
  })

  it('writes one JSON line per request with id, route, status and duration, and never a secret', async () => {
    const { url, child } = await startServeProcess(h.database)
    let log = ''
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString()
    })
    const headers = { 'x-api-key': a.key, 'content-type': 'application/json' }
    const ok = await fetch(`${url}/api-v1/transactions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ bank_account_id: a.accountId, transaction_date: '2026-02-02', description: 'logged', amount: '3.00' }),
    })
    expect(ok.status).toBe(201)
    const requestId = ok.headers.get('x-request-id')
    await (
      await fetch(`${url}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: a.email, password: a.password }),
      })
    ).arrayBuffer()
    await (await fetch(`${url}/api-keys`, { headers: { authorization: `Bearer ${a.token}` } })).arrayBuffer()
    await (await fetch(`${url}/api-v1/bank-accounts/${a.accountId}?api_key=${a.key}`, { headers })).arrayBuffer()
    expect(await stopProcess(child)).toBe(0)

    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const requests = lines.filter((l) => l.msg === 'request')
    expect(requests).toHaveLength(4)
    expect(requests[0]).toMatchObject({ level: 'info', request_id: requestId, method: 'POST', route: '/api-v1/transactions', status: 201 })
    expect(typeof requests[0].duration_ms).toBe('number')
    expect(requests.map((r) => r.route)).toEqual(['/api-v1/transactions', '/auth/token', '/api-keys', '/api-v1/bank-accounts/{id}'])
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true)
    for (const secret of [a.key, a.key.slice(12), a.token, a.password]) expect(log.includes(secret)).toBe(false)
  })
})

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document covering every route, generated from the validating schemas', async () => {
    const h = await createHarness('embedded')
    try {
      const res = await h.raw('GET', '/openapi.json')
      expect(res.status).toBe(200)
      const doc = (await res.json()) as {
        openapi: string
        paths: Record<string, Record<string, unknown>>
        components: { schemas: Record<string, unknown> }
      }
      expect(doc.openapi).toBe('3.1.0')
      // third-party validation (throws on an invalid document)
      await SwaggerParser.validate(structuredClone(doc) as never)
      for (const path of [
        '/healthz',
        '/auth/token',
        '/api-keys',
        '/api-keys/me',
        '/api-keys/me/usage',
        '/api-keys/{id}',
        '/api-keys/{id}/usage',
        '/api-v1/transactions',
        '/api-v1/bank-accounts',
        '/api-v1/bank-accounts/{id}',
        '/api-v1/company',
      ]) {
        expect(Object.keys(doc.paths)).toContain(path)
      }
      expect(Object.keys(doc.paths['/api-v1/transactions'])).toContain('post')
      for (const name of ['Transaction', 'CreateTransactionRequest', 'ApiKey', 'UsageStats', 'Error', 'BankAccount'])
        expect(doc.components.schemas).toHaveProperty(name)
      const create = doc.components.schemas.CreateTransactionRequest as { required: string[] }
      expect(create.required.sort()).toEqual(['amount', 'bank_account_id', 'description', 'transaction_date'])
    } finally {
      await h.close()
    }
  })
})
