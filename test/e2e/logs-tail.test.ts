/**
 * End-to-end: `finctl logs tail` of the built CLI shows a request made from another
 * process, on the embedded target and through `finctl serve`, on SQLite and PostgreSQL; Ctrl-C is
 * a clean exit 0 (how soon a line comes: test/timing/logs-tail.test.ts). Its filters and its usage errors run in process:
 * test/commands/logs/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, callApi, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'
import { STORES, freshPostgres } from '../helpers/harness.js'
import { record, Tail } from '../helpers/log-tail.js'

describe.each(STORES)('finctl logs tail on %s', (storeKind) => {
  const sb = new Sandbox(`logs-${storeKind}`)
  let database: string
  let drop: (() => Promise<void>) | undefined
  let server: ServeProcess | undefined
  let key: string
  const tails: Tail[] = []
  const tail = (args: string[], env: Record<string, string> = {}) => {
    const t = new Tail(sb, args, env)
    tails.push(t)
    return t
  }

  beforeAll(async () => {
    database = sb.database
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(storeKind === 'postgres' ? ['--database', database] : [])])
    key = sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(async () => {
    for (const t of tails) await t.interrupt().catch(() => {})
    await stopServeAndCleanup(server, sb)
    await drop?.()
  })

  it('embedded: shows a request made from another process; Ctrl-C exits 0', async () => {
    const t = tail(['--json'])
    await t.ready()
    await sb.ok(['company'])
    const seen = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/company')
    expect(record(seen)).toMatchObject({ method: 'GET', status: 200, key_prefix: key.slice(0, 12) })
    const { code, signal } = await t.interrupt()
    expect(signal).toBeNull()
    expect(code, t.stderr).toBe(0)
    expect(t.stderr).not.toMatch(/error/i)
    // Its own reads are not in the log.
    expect(t.seen.map((s) => record(s).path)).not.toContain('/api-v1/logs')
  })

  it('through finctl serve: shows requests answered by serve and by another embedded process', async () => {
    server = await startServe(sb, database)
    const t = tail(['--json'], { FINCTL_BASE_URL: server.url, FINCTL_API_KEY: key })
    await t.ready()
    const viaServe = await callApi(server, key, 'GET', '/api-v1/bank-accounts/nope')
    expect(viaServe.status).toBe(404)
    const served = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/bank-accounts/nope')
    expect(record(served).status).toBe(404)
    await sb.ok(['categories'])
    const embedded = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/categories')
    expect(record(embedded).status).toBe(200)
    const { code } = await t.interrupt()
    expect(code, t.stderr).toBe(0)
  })
})
