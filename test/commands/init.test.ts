/**
 * `finctl init` in process (test/helpers/in-process-cli.ts): the first run's hints, `init --demo`
 * and its table, the modes of what it writes, init again refused, no full key at rest (moved from
 * test/e2e/cli.test.ts); --json, --database, and the usage errors naming the flag (exit 2). The
 * password piped to init and login: test/commands/auth/.
 */
import { existsSync, statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANSI, FULL_KEY, FULL_KEY_ANYWHERE, expectNoSecretsAtRest, tsv } from '../helpers/cli.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const mode = (path: string) => statSync(path).mode & 0o777

describe('first run and init --demo, in process', () => {
  let sb: InProcessSandbox
  beforeAll(() => {
    sb = new InProcessSandbox('demo')
  })
  afterAll(() => sb?.cleanup())

  it('with no arguments before init, prints set-up hints on stderr and exits 0', async () => {
    const r = await sb.run([])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('not set up yet')
    expect(r.stderr).toContain('finctl init --demo')
    expect(r.stderr).toContain('finctl profile add')
  })

  it('init --demo --no-input prints a tab-separated table of the 8 demo transactions', async () => {
    const r = await sb.run(['init', '--demo', '--no-input'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toContain(ANSI)
    const [header, ...rows] = tsv(r.stdout)
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'ACCOUNT', 'CATEGORY', 'STATUS'])
    expect(rows).toHaveLength(8)
    for (const row of rows) {
      expect(row).toHaveLength(7)
      expect(row[0]).toMatch(UUID)
      expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(row[3]).toMatch(/^-?\d+\.\d{2} USD$/)
      expect(row[4]).toBe('Operating account')
      expect(row[6]).toBe('pending')
    }
    expect(new Set(rows.map((row) => row[0])).size).toBe(8)
    // No password was piped: one was generated and shown once, on stderr only.
    expect(r.stderr).toMatch(/generated/)
    expect(r.stderr).toContain('Demo Company')
    const key = sb.profiles().profiles.local.api_key
    sb.remember(key)
    expect(r.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    expect(r.stderr).not.toContain(key)
  })

  it('writes profiles.json 0600 in a 0700 folder and the database 0600, with the profile "local" current', () => {
    expect(mode(sb.configDir)).toBe(0o700)
    expect(mode(sb.profilesPath)).toBe(0o600)
    expect(mode(sb.database)).toBe(0o600)
    for (const side of [`${sb.database}-wal`, `${sb.database}-shm`]) if (existsSync(side)) expect(mode(side), side).toBe(0o600)
    const p = sb.profiles() as {
      current?: string
      profiles: Record<string, { target: string; api_key?: string; access_token?: string; email?: string }>
    }
    expect(p.current).toBe('local')
    expect(p.profiles.local.target).toBe('embedded')
    expect(p.profiles.local.api_key).toMatch(FULL_KEY)
    expect(p.profiles.local.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(p.profiles.local.email).toBe('owner@example.com')
  })

  it('with no arguments once set up, prints the help on stdout', async () => {
    const r = await sb.run([])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: finctl/)
    expect(r.stderr).not.toContain('not set up yet')
  })

  it('init again on the same profile is a usage error and changes nothing', async () => {
    const before = sb.profiles()
    const r = await sb.run(['init', '--no-input'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^error: profile "local" already exists/)
    expect(sb.profiles()).toEqual(before)
  })

  it('keeps no full API key in the database files', () => {
    expectNoSecretsAtRest(sb, sb.database)
  })
})

describe('init, in process: --json, --database, usage errors', () => {
  let sb: InProcessSandbox
  beforeAll(() => {
    sb = new InProcessSandbox('init')
  })
  afterAll(() => sb?.cleanup())

  it('--json: the company; with --demo, its account and transactions too', async () => {
    const plain = await sb.json<{ company: { name: string; base_currency: string } }>([
      'init',
      '--company',
      'Json Co',
      '--currency',
      'eur',
      '--no-input',
      '--json',
    ])
    expect(plain).toEqual({ company: expect.objectContaining({ name: 'Json Co', base_currency: 'EUR' }) })
    const demo = await sb.json<{ company: object; account: { name: string }; transactions: unknown[] }>([
      '--profile',
      'demo',
      'init',
      '--demo',
      '--database',
      sb.path('demo.db'),
      '--no-input',
      '--json',
    ])
    expect(demo.transactions).toHaveLength(8)
    expect(demo.account.name).toEqual(expect.any(String))
    // Another profile with a database of its own: the profile names it, and is the current one now.
    const profiles = sb.profiles()
    expect(profiles.profiles.demo).toMatchObject({ target: 'embedded', database: sb.path('demo.db') })
    expect(profiles.current).toBe('demo')
    expect(existsSync(sb.path('demo.db'))).toBe(true)
  })

  it('usage errors name what is wrong (exit 2) and create no profile', async () => {
    for (const [args, message] of [
      [['--profile', 'p1', 'init', '--currency', 'XYZ'], '--currency XYZ: not an ISO 4217 currency code'],
      [['--profile', 'bad name', 'init'], '"bad name" is not a valid profile name'],
      [['--profile', 'p2', 'init', '--password-stdin'], 'the password must be at least 8 characters'],
    ] as const) {
      const r = await sb.run([...args, '--no-input'], { input: 'short\n' })
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toContain(message)
      expect(Object.keys(sb.profiles().profiles)).toEqual(['local', 'demo'])
    }
  })
})
