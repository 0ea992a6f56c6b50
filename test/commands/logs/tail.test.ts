/**
 * `finctl logs tail` in process, running in the background (test/helpers/in-process-background.ts)
 * while other commands make requests, on SQLite and PostgreSQL: its filters by status, method, path
 * and key, a line per request for people or NDJSON; a bad filter or --output csv is exit 2 naming
 * it, before anything is printed. Moved from test/e2e/logs-tail.test.ts, which keeps what a process
 * shows: a request of another process within a second, through `finctl serve`, Ctrl-C exiting 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InBackground } from '../../helpers/in-process-background.js'
import { STORES, freshPostgres } from '../../helpers/harness.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const record = (line: string) => JSON.parse(line) as { path: string; status: number; method: string; key_prefix: string }

describe.each(STORES)('finctl logs tail, in process on %s', (storeKind) => {
  const sb = new InProcessSandbox(`logs-${storeKind}`)
  let drop: (() => Promise<void>) | undefined
  let key: string
  const tails: InBackground[] = []
  const tail = (args: string[]) => {
    const t = new InBackground(sb, ['logs', 'tail', ...args])
    tails.push(t)
    return t
  }
  const ready = (t: InBackground) => t.until(() => t.stderr.includes('tailing'), 'the tailing note')

  beforeAll(async () => {
    let database: string | undefined
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(database ? ['--database', database] : [])])
    key = sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(async () => {
    for (const t of tails) await t.interrupt().catch(() => {})
    await drop?.()
    sb.cleanup()
  })

  it('filters by status, method, path and key; prints one line per request for people', async () => {
    const errors = tail(['--status', '4xx', '--method', 'get'])
    const accounts = tail(['--json', '--path', '/api-v1/bank-accounts', '--key', key.slice(0, 12)])
    await ready(errors)
    await ready(accounts)
    await sb.ok(['company'])
    // By `finctl api`: `tx get` and `accounts get` look a short id or a name up in a list first.
    expect((await sb.run(['api', 'GET', '/api-v1/transactions/tx_nope'])).code).toBe(5)
    await sb.ok(['accounts', 'list'])
    expect((await sb.run(['api', 'GET', '/api-v1/bank-accounts/nope'])).code).toBe(5)
    await errors.until(() => errors.lines.length >= 2, 'two lines')
    await accounts.until(() => accounts.lines.length >= 2, 'two lines')
    // Anything else would have come by now.
    await new Promise((r) => setTimeout(r, 1000))
    const lines = errors.lines
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[404\] GET +\/api-v1\/transactions\/tx_nope \d+ms fds_\w{8} req_\w+$/)
    expect(lines[1]).toMatch(/\[404\] GET +\/api-v1\/bank-accounts\/nope /)
    expect(accounts.lines.map((l) => `${record(l).path} ${record(l).status}`)).toEqual([
      '/api-v1/bank-accounts 200',
      '/api-v1/bank-accounts/nope 404',
    ])
    for (const t of [errors, accounts]) expect(await t.interrupt(), t.stderr).toBe(0)
  })

  it('a bad filter is exit 2 naming the flag, before anything is printed', async () => {
    for (const [flag, value] of [
      ['--status', '6xx'],
      ['--method', 'GE T'],
      ['--path', 'api-v1'],
      ['--key', 'fds_short'],
    ]) {
      const r = await sb.run(['logs', 'tail', flag, value])
      expect(r.code, `${flag} ${value}`).toBe(2)
      expect(r.stderr).toContain(flag)
      expect(r.stdout).toBe('')
    }
  })

  it('--output csv is exit 2: it prints lines, or NDJSON with --json', async () => {
    const r = await sb.run(['logs', 'tail', '--output', 'csv'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--output csv is not one of them')
    expect(r.stdout).toBe('')
  })
})
