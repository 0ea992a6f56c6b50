/**
 * End-to-end: the built CLI (`node bin/finctl.cjs`) on the embedded core, spawned without a
 * terminal, each group in its own FINCTL_CONFIG_DIR. First run and `init --demo`, password set-up
 * and login, accounts and transactions. Output formats and colour are in output.test.ts, keys in
 * test/commands/keys/, exit codes in exit-codes.test.ts, the remote target in remote.test.ts.
 */
import { existsSync, statSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANSI, FULL_KEY, FULL_KEY_ANYWHERE, Sandbox, expectNoSecretsAtRest, tsv } from '../helpers/cli.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const mode = (path: string) => statSync(path).mode & 0o777

describe('first run and init --demo', () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = new Sandbox('demo')
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
    expect(header).toEqual(['ID', 'DATE', 'DESCRIPTION', 'AMOUNT', 'CATEGORY', 'STATUS'])
    expect(rows).toHaveLength(8)
    for (const row of rows) {
      expect(row).toHaveLength(6)
      expect(row[0]).toMatch(UUID)
      expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(row[3]).toMatch(/^-?\d+\.\d{2} USD$/)
      expect(row[5]).toBe('pending')
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
    const p = sb.profiles()
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

describe('init and login with --password-stdin', () => {
  let sb: Sandbox
  const email = 'owner@auth.test'
  const password = 'correct horse battery staple'
  beforeAll(() => {
    sb = new Sandbox('auth')
  })
  afterAll(() => sb?.cleanup())

  it('init reads the piped password and generates none', async () => {
    const r = await sb.run(['init', '--company', 'Auth Co', '--email', email, '--password-stdin', '--no-input'], { input: `${password}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('') // no demo, table format: nothing to print
    expect(r.stderr).toContain('Created company "Auth Co" (USD)')
    expect(r.stderr).not.toMatch(/generated/)
    expect(r.stderr).not.toContain(password)
    const p = sb.profiles().profiles.local
    expect(p.email).toBe(email)
    sb.remember(p.api_key)
  })

  it('login --password-stdin --email stores a working access token', async () => {
    // Without a token, key administration is refused to the profile's API key.
    const out = await sb.ok(['logout'])
    expect(out.stderr).toContain('Logged out')
    expect(sb.profiles().profiles.local.access_token).toBeUndefined()
    const refused = await sb.run(['keys', 'list', '--json'])
    expect(refused.code).toBe(4)

    const r = await sb.run(['login', '--password-stdin', '--email', email], { input: `${password}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`Logged in as ${email}`)
    const p = sb.profiles().profiles.local
    expect(p.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(Date.parse(p.token_expires_at!)).toBeGreaterThan(Date.now() + 23 * 3600_000)

    const keys = await sb.json<Array<{ name: string; rate_limit_per_minute: number; rate_limit_per_day: number }>>([
      'keys',
      'list',
      '--json',
    ])
    expect(keys.map((k) => k.name)).toEqual(['finctl CLI'])
    // The owner's key for the embedded database is not paced like an ordinary key (60 a minute).
    expect(keys[0]).toMatchObject({ rate_limit_per_minute: 10_000, rate_limit_per_day: 10_000_000 })
  })

  it('login with a wrong password exits 3 and leaves the profile as it was', async () => {
    const before = sb.profiles()
    const r = await sb.run(['login', '--password-stdin', '--email', email], { input: 'not the password\n' })
    expect(r.code).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: /)
    expect(sb.profiles()).toEqual(before)
  })

  it('login without --password-stdin and without a terminal is a usage error', async () => {
    const r = await sb.run(['login', '--email', email])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--password-stdin')
  })

  it('init refuses a piped password shorter than 8 characters', async () => {
    const r = await sb.run(['--profile', 'short', 'init', '--email', 'short@auth.test', '--password-stdin', '--no-input'], {
      input: 'abc\n',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('at least 8 characters')
    expect(sb.profiles().profiles.short).toBeUndefined()
  })

  it('keeps neither the API key nor the password in the database files', () => {
    expectNoSecretsAtRest(sb, sb.database, [password])
  })
})

describe('accounts and transactions', () => {
  let sb: Sandbox
  let accountId: string
  beforeAll(async () => {
    sb = new Sandbox('tx')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-tx\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('accounts create with flags, then list and get', async () => {
    const a = await sb.json([
      'accounts',
      'create',
      '--name',
      'Operating',
      '--type',
      'checking',
      '--currency',
      'USD',
      '--opening-balance',
      '1000.00',
      '--json',
    ])
    expect(a).toMatchObject({
      name: 'Operating',
      account_type: 'checking',
      currency_code: 'USD',
      status: 'active',
      opening_balance: 1000,
      current_balance: 1000,
    })
    expect(a.id).toMatch(UUID)
    accountId = a.id

    const list = await sb.json<Array<{ id: string }>>(['accounts', 'list', '--json'])
    expect(list.map((x) => x.id)).toEqual([accountId])
    const got = await sb.json(['accounts', 'get', accountId, '--json'])
    expect(got).toEqual(a)
  })

  it('tx create with flags returns the transaction (--json)', async () => {
    const t = await sb.json([
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-20',
      '--description',
      'X',
      '--amount',
      '-149.99',
      '--json',
    ])
    expect(t).toMatchObject({
      bank_account_id: accountId,
      transaction_date: '2026-11-20',
      posted_date: '2026-11-20',
      description: 'X',
      amount: -149.99,
      currency_code: 'USD',
      status: 'pending',
      is_reconciled: false,
      tags: [],
    })
    expect(t.id).toMatch(UUID)
  })

  it('tx create without --json prints a FIELD/VALUE table with the amount in fixed decimals', async () => {
    const r = await sb.ok([
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-21',
      '--description',
      'Stamps',
      '--amount',
      '-0.1',
      '--tags',
      'office,post',
    ])
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['FIELD', 'VALUE'])
    const fields = Object.fromEntries(rows.slice(1))
    expect(fields.amount).toBe('-0.10 USD')
    expect(fields.description).toBe('Stamps')
    expect(fields.account).toBe(accountId)
    expect(fields.tags).toBe('office,post')
    expect(r.stderr).toMatch(/^created transaction [0-9a-f-]{36}$/m)
  })

  it('an amount with more decimals than the currency allows exits 6 and names amount', async () => {
    const args = ['tx', 'create', '--account', accountId, '--date', '2026-11-20', '--description', 'X', '--amount', '-1.999']
    const r = await sb.run(args)
    expect(r.code).toBe(6)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: .*amount/)

    // With --json, the service's error object on stderr.
    const j = await sb.run([...args, '--json'])
    expect(j.code).toBe(6)
    expect(j.stdout).toBe('')
    const err = JSON.parse(j.stderr)
    expect(err.code).toBe('validation_error')
    expect(err.details.map((d: { path: string }) => d.path)).toContain('amount')
  })

  it('a missing required flag without a terminal exits 2 and names the flag', async () => {
    const noAmount = await sb.run(['tx', 'create', '--account', accountId, '--date', '2026-11-20', '--description', 'X'])
    expect(noAmount.code).toBe(2)
    expect(noAmount.stdout).toBe('')
    expect(noAmount.stderr).toContain('--amount')

    const noAccount = await sb.run(['tx', 'create', '--date', '2026-11-20', '--description', 'X', '--amount', '1'])
    expect(noAccount.code).toBe(2)
    expect(noAccount.stderr).toContain('--account')

    const noType = await sb.run(['accounts', 'create', '--name', 'Savings'])
    expect(noType.code).toBe(2)
    expect(noType.stderr).toContain('--type')
  })

  it('a transaction on an unknown account exits 5 and names the --account flag', async () => {
    const r = await sb.run(['tx', 'create', '--account', randomUUID(), '--date', '2026-11-20', '--description', 'X', '--amount', '1'])
    expect(r.code).toBe(5)
    expect(r.stderr).toMatch(/^ {2}--account: no such bank account$/m)
    expect(r.stderr).not.toContain('bank_account_id')
  })

  it('the balance counts exactly the transactions that were created', async () => {
    const a = await sb.json(['accounts', 'get', accountId, '--json'])
    expect(a.current_balance).toBe(849.91) // 1000.00 - 149.99 - 0.10, nothing from the refused ones
  })

  it('keeps no full API key in the database files', () => {
    expectNoSecretsAtRest(sb, sb.database, ['password-for-tx'])
  })
})
