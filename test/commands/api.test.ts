/**
 * `finctl api METHOD PATH` in process (test/helpers/in-process-cli.ts) on the embedded core:
 * credentials per path, --data forms, --include, --paginate, exit codes by status. Moved from
 * test/e2e/api.test.ts, which keeps the remote target (`finctl serve`, a fake service's 5xx).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox, fastKey } from '../helpers/in-process-cli.js'

interface Envelope<T = any> {
  success: boolean
  data: T
  pagination?: { next_cursor: string | null; has_more: boolean }
  error?: { code: string; message: string }
}

describe('finctl api on the embedded core, in process', () => {
  let sb: InProcessSandbox
  let accountId: string

  beforeAll(async () => {
    sb = new InProcessSandbox('api')
    await sb.ok(['init', '--company', 'Api Co', '--password-stdin', '--no-input'], { input: 'password-for-api\n' })
    await fastKey(sb)
  })
  afterAll(() => sb?.cleanup())

  it('GET prints the raw JSON body on stdout and exits 0', async () => {
    const r = await sb.run(['api', 'GET', '/api-v1/company'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const body: Envelope = JSON.parse(r.stdout)
    expect(body).toMatchObject({ success: true, data: { name: 'Api Co', base_currency: 'USD' } })
  })

  it('--data inline JSON creates a record (the method is case-insensitive)', async () => {
    const r = await sb.run([
      'api',
      'post',
      '/api-v1/bank-accounts',
      '--data',
      '{"name":"Inline","account_type":"checking","currency_code":"USD"}',
    ])
    expect(r.code, r.stderr).toBe(0)
    const body: Envelope = JSON.parse(r.stdout)
    expect(body.data).toMatchObject({ name: 'Inline', account_type: 'checking' })
    accountId = body.data.id
  })

  it('--data @FILE and --data @- (stdin) send the file and the piped text', async () => {
    const file = join(sb.dir, 'account.json')
    writeFileSync(file, JSON.stringify({ name: 'From file', account_type: 'cash', currency_code: 'USD' }))
    const fromFile = await sb.run(['api', 'POST', '/api-v1/bank-accounts', '--data', `@${file}`])
    expect(fromFile.code, fromFile.stderr).toBe(0)
    expect(JSON.parse(fromFile.stdout).data.name).toBe('From file')

    const fromStdin = await sb.run(['api', 'PATCH', `/api-v1/bank-accounts/${accountId}`, '--data', '@-'], { input: '{"name":"Renamed"}' })
    expect(fromStdin.code, fromStdin.stderr).toBe(0)
    expect(JSON.parse(fromStdin.stdout).data).toMatchObject({ id: accountId, name: 'Renamed' })

    const names = (await sb.json<Envelope>(['api', 'GET', '/api-v1/bank-accounts'])).data.map((a: { name: string }) => a.name).sort()
    expect(names).toEqual(['From file', 'Renamed'])
  })

  it('bad --data is a usage error (2) that sends nothing', async () => {
    const bad = await sb.run(['api', 'POST', '/api-v1/bank-accounts', '--data', '{"name":'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: --data is not valid JSON/m)
    expect(bad.stdout).toBe('')
    const missing = await sb.run(['api', 'POST', '/api-v1/bank-accounts', '--data', '@/nonexistent/x.json'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('cannot read /nonexistent/x.json')
    const withGet = await sb.run(['api', 'GET', '/api-v1/company', '--data', '{}'])
    expect(withGet.code).toBe(2)
    const method = await sb.run(['api', 'FETCH', '/api-v1/company'])
    expect(method.code).toBe(2)
    expect(method.stderr).toContain('unknown method "FETCH"')
  })

  it('key administration paths use the login token, other paths the API key', async () => {
    // The profile holds both; with the API key, GET /api-keys would be refused (403).
    const admin = await sb.run(['api', 'GET', '/api-keys'])
    expect(admin.code, admin.stderr).toBe(0)
    const keys: Envelope = JSON.parse(admin.stdout)
    expect(keys.data.map((k: { name: string }) => k.name)).toContain('e2e-fast')
    // /api-keys/me describes the key in use: it is answered for the API key, not the token.
    const me = await sb.json<Envelope>(['api', 'GET', '/api-keys/me'])
    expect(me.data.name).toBe('e2e-fast')
    // A profile with an API key and no login: key administration is refused (403 -> 4).
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'keyonly', '--database', sb.database, '--api-key-stdin'], { input: `${key}\n` })
    const keyOnly = await sb.run(['--profile', 'keyonly', 'api', 'GET', '/api-keys'])
    expect(keyOnly.code).toBe(4)
    expect(JSON.parse(keyOnly.stdout).error.code).toBe('forbidden')
    expect((await sb.run(['--profile', 'keyonly', 'api', 'GET', '/api-keys/me'])).code).toBe(0)
  })

  it('exit codes follow the status: 401 -> 3, 403 -> 4, 404 -> 5, 400 -> 6, 429 -> 7', async () => {
    const notFound = await sb.run(['api', 'GET', '/api-v1/transactions/00000000-0000-4000-8000-000000000000'])
    expect(notFound.code).toBe(5)
    expect(JSON.parse(notFound.stdout).error.code).toBe('not_found') // the body is still printed
    expect(notFound.stderr).toMatch(/^error: HTTP 404: /m)

    const invalid = await sb.run(['api', 'POST', '/api-v1/bank-accounts', '--data', '{"name":""}'])
    expect(invalid.code).toBe(6)
    expect(JSON.parse(invalid.stdout).error.code).toBe('validation_error')

    const unauth = await sb.run(['api', 'GET', '/api-v1/company'], { env: { FINCTL_API_KEY: `fds_${'x'.repeat(43)}` } })
    expect(unauth.code).toBe(3)

    const readOnly = await sb.json(['keys', 'create', '--name', 'read-only', '--scopes', 'read', '--json'])
    sb.remember(readOnly.key)
    const forbidden = await sb.run(
      ['api', 'POST', '/api-v1/bank-accounts', '--data', '{"name":"No","account_type":"cash","currency_code":"USD"}'],
      {
        env: { FINCTL_API_KEY: readOnly.key },
      },
    )
    expect(forbidden.code).toBe(4)

    const slow = await sb.json(['keys', 'create', '--name', 'slow', '--scopes', 'read', '--rate-limit-per-minute', '1', '--json'])
    sb.remember(slow.key)
    const env = { FINCTL_API_KEY: slow.key, FINCTL_MAX_RETRIES: '0' }
    expect((await sb.run(['api', 'GET', '/api-v1/company'], { env })).code).toBe(0)
    const limited = await sb.run(['api', 'GET', '/api-v1/company'], { env })
    expect(limited.code).toBe(7)
    expect(JSON.parse(limited.stdout).error.code).toBe('rate_limited')
  })

  it('--header sends a header: a reused Idempotency-Key with another body is a 409 -> 6', async () => {
    const body = (d: string) =>
      JSON.stringify({ bank_account_id: accountId, transaction_date: '2026-02-01', description: d, amount: '-1.00' })
    const first = await sb.run(['api', 'POST', '/api-v1/transactions', '-H', 'Idempotency-Key: api-e2e-1', '--data', body('first')])
    expect(first.code, first.stderr).toBe(0)
    const again = await sb.run(['api', 'POST', '/api-v1/transactions', '--header', 'Idempotency-Key: api-e2e-1', '--data', body('first')])
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).data.id).toBe(JSON.parse(first.stdout).data.id)
    const conflict = await sb.run(['api', 'POST', '/api-v1/transactions', '-H', 'Idempotency-Key: api-e2e-1', '--data', body('second')])
    expect(conflict.code).toBe(6)
    expect(JSON.parse(conflict.stdout).error.code).toBe('idempotency_conflict')
    expect(conflict.stderr).toMatch(/^error: HTTP 409: /m)
    expect((await sb.run(['api', 'GET', '/api-v1/company', '-H', 'no-colon'])).code).toBe(2)
  })

  it('--include prints the status line and headers on stderr; stdout stays the JSON body', async () => {
    const r = await sb.run(['api', 'GET', '/api-v1/company', '--include'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^HTTP 200 OK\n/)
    expect(r.stderr).toMatch(/^content-type: application\/json/m)
    expect(JSON.parse(r.stdout).success).toBe(true)
  })

  it('--paginate follows next_cursor and prints one array of every item (or ndjson)', async () => {
    for (let i = 1; i <= 5; i++) {
      await sb.ok(['tx', 'create', '--account', accountId, '--date', `2026-01-0${i}`, '--description', `Row ${i}`, '--amount', `-${i}.00`])
    }
    const one = await sb.json<Envelope>(['api', 'GET', '/api-v1/transactions?limit=2'])
    expect(one.data).toHaveLength(2)
    expect(one.pagination?.has_more).toBe(true)

    const all = await sb.json<Array<{ description: string }>>([
      'api',
      'GET',
      '/api-v1/transactions?limit=2&sort=transaction_date',
      '--paginate',
    ])
    expect(all.map((t) => t.description)).toEqual(['Row 1', 'Row 2', 'Row 3', 'Row 4', 'Row 5', 'first'])

    const nd = await sb.ok(['api', 'GET', '/api-v1/transactions?limit=2', '--paginate', '--output', 'ndjson'])
    const lines = nd.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(6)

    const notList = await sb.run(['api', 'GET', '/api-v1/company', '--paginate'])
    expect(notList.code).toBe(2)
    const post = await sb.run(['api', 'POST', '/api-v1/transactions', '--paginate'])
    expect(post.code).toBe(2)
  })
})
