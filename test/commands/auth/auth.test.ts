/**
 * `finctl login | logout | whoami` in process (test/helpers/in-process-cli.ts). A password piped
 * to init and login, logout, a wrong password (exit 3), no password without a terminal (exit 2),
 * none of it at rest (moved from test/e2e/cli.test.ts); whoami as a record and --json, for a key
 * and for a login token, and where each credential comes from. The OS keyring: test/e2e/keyring.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY, expectNoSecretsAtRest } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface LocalProfile {
  api_key?: string
  access_token?: string
  token_expires_at?: string
  email?: string
}
const local = (sb: InProcessSandbox) => sb.profiles().profiles.local as LocalProfile

describe('init and login with --password-stdin, whoami and logout, in process', () => {
  let sb: InProcessSandbox
  let key: string
  const email = 'owner@auth.test'
  const password = 'correct horse battery staple'
  beforeAll(() => {
    sb = new InProcessSandbox('auth')
  })
  afterAll(() => sb?.cleanup())

  it('init reads the piped password and generates none', async () => {
    const r = await sb.run(['init', '--company', 'Auth Co', '--email', email, '--password-stdin', '--no-input'], { input: `${password}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('') // no demo, table format: nothing to print
    expect(r.stderr).toContain('Created company "Auth Co" (USD)')
    expect(r.stderr).not.toMatch(/generated/)
    expect(r.stderr).not.toContain(password)
    const p = local(sb)
    expect(p.email).toBe(email)
    key = sb.remember(p.api_key)
  })

  it('login --password-stdin --email stores a working access token', async () => {
    // Without a token, key administration is refused to the profile's API key.
    const out = await sb.ok(['logout'])
    expect(out.stderr).toContain('Logged out')
    expect(local(sb).access_token).toBeUndefined()
    const refused = await sb.run(['keys', 'list', '--json'])
    expect(refused.code).toBe(4)

    const r = await sb.run(['login', '--password-stdin', '--email', email], { input: `${password}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`Logged in as ${email}`)
    const p = local(sb)
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

  // whoami and logout, on the same profile: its key, its token, and a profile of the token alone.
  it('with the profile API key: the company, the key and its scopes, both secrets in profiles.json', async () => {
    const who = await sb.json(['whoami', '--json'])
    expect(who).toMatchObject({
      profile: 'local',
      target: expect.stringContaining(sb.database),
      company: 'Auth Co',
      base_currency: 'USD',
      credential: 'api_key',
      key_prefix: key.slice(0, 12),
      api_key_storage: 'profiles.json',
      access_token_storage: 'profiles.json',
    })
    expect(who.scopes.length).toBeGreaterThan(0)
    const table = await sb.ok(['whoami'])
    expect(table.stdout).toContain('company\tAuth Co')
    expect(table.stdout).toContain('credential\tapi_key')
    expect(table.stdout).not.toMatch(FULL_KEY)
  })

  it('says where a credential given outside the profile comes from', async () => {
    expect(await sb.json(['whoami', '--json'], { env: { FINCTL_API_KEY: key } })).toMatchObject({ api_key_storage: 'FINCTL_API_KEY' })
    const flag = await sb.run(['--api-key', key, 'whoami', '--json'])
    expect(JSON.parse(flag.stdout)).toMatchObject({ api_key_storage: '--api-key' })
    expect(flag.stderr).toMatch(/^warning: an API key given as a flag is visible in process lists/m)
  })

  it('a profile with a login token alone: login keeps it there; whoami shows its email, scopes and expiry', async () => {
    await sb.ok(['profile', 'add', 'tok', '--database', sb.database])
    const login = await sb.run(['--profile', 'tok', 'login', '--email', email, '--password-stdin'], { input: `${password}\n` })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stderr).toContain('token saved in profile "tok"')
    const who = await sb.json(['--profile', 'tok', 'whoami', '--json'])
    expect(who).toMatchObject({
      profile: 'tok',
      company: 'Auth Co',
      credential: 'access_token',
      email,
      api_key_storage: null,
      access_token_storage: 'profiles.json',
    })
    expect(who.scopes.length).toBeGreaterThan(0)
    expect(Date.parse(who.token_expires_at)).toBeGreaterThan(Date.now())
  })

  it('logout forgets the token and keeps the key; a second logout says there is none', async () => {
    const out = await sb.ok(['logout'])
    expect(out.stderr).toContain('Logged out of profile "local" (its API key, if any, is kept)')
    expect(local(sb).access_token).toBeUndefined()
    expect(local(sb).token_expires_at).toBeUndefined()
    expect(await sb.json(['whoami', '--json'])).toMatchObject({ credential: 'api_key', access_token_storage: null })
    const again = await sb.ok(['logout'])
    expect(again.stderr).toContain('profile "local" holds no access token')
  })
})
