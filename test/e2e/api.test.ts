/**
 * End-to-end: `finctl api METHOD PATH` through the built CLI on a remote `finctl serve`, and a fake
 * service for what the real one never answers (5xx), or no service (exit 10). On the embedded core
 * (credentials per path, --data forms, --include, --paginate, exit codes by status) it runs in
 * process: test/commands/api.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, closedPort, fastKey, listenLocal, startServe, type ServeProcess } from '../helpers/cli.js'

interface Envelope<T = any> {
  success: boolean
  data: T
  pagination?: { next_cursor: string | null; has_more: boolean }
  error?: { code: string; message: string }
}

describe('finctl api on a remote target', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let fake: { url: string; close: () => Promise<void> } | undefined
  let fakeUrl: string

  beforeAll(async () => {
    sb = new Sandbox('api-remote')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-api-remote\n' })
    const { key } = await fastKey(sb)
    server = await startServe(sb, sb.database)
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    fake = await listenLocal((req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ success: false, error: { code: 'unavailable', message: `down for maintenance (${req.url})` } }))
    })
    fakeUrl = fake.url
  })

  afterAll(async () => {
    await fake?.close()
    try {
      if (server) expect((await server.stop()).code, server.stderr()).toBe(0)
    } finally {
      sb?.cleanup()
    }
  })

  it('goes through the same client: reads, and writes naming the target on stderr first', async () => {
    const company = await sb.json<Envelope>(['--profile', 'remote', 'api', 'GET', '/api-v1/company'])
    expect(company.success).toBe(true)
    const host = new URL(server!.url).host
    const r = await sb.run([
      '--profile',
      'remote',
      'api',
      'POST',
      '/api-v1/bank-accounts',
      '--data',
      '{"name":"Remote","account_type":"cash","currency_code":"USD"}',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe(`writing to profile "remote" at ${host}\n`)
    expect(JSON.parse(r.stdout).data.name).toBe('Remote')
    // The same request on the embedded target names nothing.
    const local = await sb.run(['api', 'GET', '/api-v1/bank-accounts'])
    expect(local.stderr).toBe('')
    expect(JSON.parse(local.stdout).data.map((a: { name: string }) => a.name)).toContain('Remote')
  })

  it('a 5xx answer exits 1 with the body on stdout; no connection exits 10', async () => {
    const down = await sb.run(['--base-url', fakeUrl, 'api', 'GET', '/api-v1/company'], { env: { FINCTL_API_KEY: 'fds_whatever' } })
    expect(down.code).toBe(1)
    expect(JSON.parse(down.stdout).error.message).toBe('down for maintenance (/api-v1/company)')
    expect(down.stderr).toContain('error: HTTP 503: down for maintenance')

    const port = await closedPort()
    const refused = await sb.run(['--base-url', `http://127.0.0.1:${port}`, 'api', 'GET', '/healthz'])
    expect(refused.code).toBe(10)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+/m)
  })
})
