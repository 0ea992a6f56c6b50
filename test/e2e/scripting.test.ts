/**
 * End-to-end, through the built CLI: what a script types and reads after the command tests
 * moved in process (test/commands/): a short id taken back and an ambiguous one refused, a period
 * people say, a key rolled while the old one still answers. The details of each are tested in
 * process (test/commands/tx/short-ids.test.ts, test/commands/reports/periods.test.ts,
 * test/commands/keys/keys.test.ts); these check the same through the bundle a user runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY, Sandbox } from '../helpers/cli.js'

interface Tx {
  id: string
  transaction_date: string
  description: string
}

describe('what scripts type, through the built CLI', () => {
  let sb: Sandbox
  let all: Tx[] = []

  beforeAll(async () => {
    sb = new Sandbox('scripting')
    await sb.ok(['init', '--demo', '--no-input'])
    sb.remember(sb.profiles().profiles.local.api_key)
    all = await sb.json(['tx', 'list', '--all', '--json'])
  }, 120_000)
  afterAll(() => sb?.cleanup())

  it('a transaction by the last 8 characters of its id; a prefix many ids share is exit 2 naming them', async () => {
    const t = all[0]
    expect((await sb.json<Tx>(['tx', 'get', t.id.slice(-8), '--json'])).id).toBe(t.id)
    // The demo's ids are made in one millisecond: their first 8 characters are the same.
    const shared = all[0].id.slice(0, 8)
    expect(all.filter((x) => x.id.startsWith(shared)).length).toBeGreaterThan(1)
    const r = await sb.run(['tx', 'get', shared])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain(shared)
    expect(r.stderr).toMatch(new RegExp(`"${shared}" matches (\\d+|more than \\d+) transactions; give more of the id`))
  })

  it('--from/--to as a month: that month, its days on stderr', async () => {
    const month = all[0].transaction_date.slice(0, 7)
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10)
    const r = await sb.ok(['tx', 'list', '--from', month, '--to', month, '--json', 'transaction_date'])
    expect(r.stderr).toBe(`period: ${month}-01 .. ${last}\n`)
    const dates = (JSON.parse(r.stdout) as Tx[]).map((x) => x.transaction_date)
    expect(dates.length).toBeGreaterThan(0)
    expect(dates.every((d) => d.startsWith(month))).toBe(true)
    const bad = await sb.run(['reports', 'summary', '--from', 'last-fortnight'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--from')
  })

  it('keys roll: the successor is shown once; the old key answers until the grace ends', async () => {
    const old = await sb.json<{ id: string; key: string; key_prefix: string }>([
      'keys',
      'create',
      '--name',
      'ci',
      '--scopes',
      'read',
      '--json',
    ])
    sb.remember(old.key)
    const r = await sb.run(['keys', 'roll', old.id, '--grace', '1h', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const rolled = JSON.parse(r.stdout) as { key: { key: string; rolled_from: string }; previous: { id: string; grace_ends_at: string } }
    const key = sb.remember(rolled.key.key)
    expect(key).toMatch(FULL_KEY)
    expect(rolled.key.rolled_from).toBe(old.id)
    expect(rolled.previous.id).toBe(old.id)
    expect(Date.parse(rolled.previous.grace_ends_at) - Date.now()).toBeGreaterThan(55 * 60_000)
    for (const k of [old.key, key]) await sb.ok(['accounts', 'list', '--json'], { env: { FINCTL_API_KEY: k } })
    const table = await sb.ok(['keys', 'list'], { env: { COLUMNS: '200' } })
    expect(table.stdout).toContain('rolling until')
  })
})
