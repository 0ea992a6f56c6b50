/**
 * End-to-end: output formats (--json, --output csv|ndjson, the tab-separated table off a terminal)
 * and colour (FORCE_COLOR, NO_COLOR, pipes) of the built CLI, in its own FINCTL_CONFIG_DIR.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANSI, Sandbox, expectNoSecretsAtRest, tsv } from '../helpers/cli.js'

describe('output formats and colour', () => {
  let sb: Sandbox
  let ids: string[]
  beforeAll(async () => {
    sb = new Sandbox('output')
    await sb.ok(['init', '--demo', '--no-input'])
    sb.remember(sb.profiles().profiles.local.api_key)
    await sb.ok(['accounts', 'create', '--name', 'Savings, "reserve"', '--type', 'savings', '--currency', 'USD'])
  })
  afterAll(() => sb?.cleanup())

  it('--json is exactly the list: an array that parses', async () => {
    const list = await sb.json<Array<{ id: string; name: string }>>(['accounts', 'list', '--json'])
    expect(list).toHaveLength(2)
    expect(list.map((a) => a.name).sort()).toEqual(['Operating account', 'Savings, "reserve"'])
    ids = list.map((a) => a.id)
  })

  it('--output csv has a header line and one quoted row per record', async () => {
    const r = await sb.ok(['accounts', 'list', '--output', 'csv'])
    const lines = r.stdout.split('\r\n')
    expect(lines.pop()).toBe('')
    expect(lines[0]).toBe('id,name,type,institution,number,status,balance,currency')
    // the balance a plain number with the currency beside it, as --json has them
    const json = await sb.json<Array<{ id: string; current_balance: number; currency_code: string }>>(['accounts', 'list', '--json'])
    for (const a of json)
      expect(
        lines
          .find((l) => l.startsWith(a.id))!
          .split(',')
          .slice(-2),
      ).toEqual([a.current_balance.toFixed(2), a.currency_code])
    expect(lines).toHaveLength(3)
    expect(
      lines
        .slice(1)
        .map((l) => l.slice(0, 36))
        .sort(),
    ).toEqual([...ids].sort())
    expect(lines.find((l) => l.includes('reserve'))).toContain('"Savings, ""reserve"""')
  })

  it('--output ndjson is one JSON object per line', async () => {
    const r = await sb.ok(['accounts', 'list', '--output', 'ndjson'])
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    const parsed = lines.map((l) => JSON.parse(l))
    expect(parsed.map((a) => a.id)).toEqual(ids)
  })

  it('without a terminal, the table is tab-separated with an upper-case header line', async () => {
    const r = await sb.ok(['accounts', 'list'])
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'NAME', 'TYPE', 'INSTITUTION', 'NUMBER', 'STATUS', 'BALANCE'])
    expect(rows.map((row) => row[0])).toEqual(ids)
    const balances = Object.fromEntries(rows.map((row) => [row[1], row[6]]))
    // 25000.00 opening balance plus the 8 demo transactions, to the cent.
    expect(balances).toEqual({ 'Operating account': '25799.75 USD', 'Savings, "reserve"': '0.00 USD' })
  })

  it('FORCE_COLOR colours the warning of keys create (so the checks below can see escapes)', async () => {
    const r = await sb.run(['keys', 'create', '--name', 'forced', '--scopes', 'read', '--json'], { env: { FORCE_COLOR: '1' } })
    expect(r.code, r.stderr).toBe(0)
    sb.remember(JSON.parse(r.stdout).key)
    expect(r.stderr).toContain(`${ANSI}33m`)
  })

  it.each([
    ['NO_COLOR=1', { NO_COLOR: '1' }],
    ['piped, no colour variables', {}],
  ])('%s: no ANSI escapes on stdout or stderr', async (_label, env: Record<string, string>) => {
    const created = await sb.run(['keys', 'create', '--name', `plain-${Object.keys(env).length}`, '--scopes', 'read'], { env })
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toMatch(/^warning: this is the only time/m)
    sb.remember(created.stdout.trimEnd().split('\n').pop())
    const failed = await sb.run(['accounts', 'get', randomUUID()], { env })
    expect(failed.code).toBe(5)
    const listed = await sb.run(['keys', 'list'], { env })
    expect(listed.code).toBe(0)
    for (const r of [created, failed, listed]) {
      expect(r.stdout).not.toContain(ANSI)
      expect(r.stderr).not.toContain(ANSI)
    }
  })

  it('keeps no full API key in the database files', () => {
    expect(sb.secrets.size).toBe(4)
    expectNoSecretsAtRest(sb, sb.database)
  })
})
