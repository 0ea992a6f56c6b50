/**
 * End-to-end: the remote target. `finctl serve` runs as a child process on the SQLite file that
 * `finctl init` created; a profile points the CLI at it; embedded and remote see the same data.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverSemiSpaceMb } from '../../src/cli/server-heap.js'
import { FULL_KEY_ANYWHERE, Sandbox, expectNoSecretsAtRest, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'

describe('remote target over finctl serve', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let companyId: string
  let accountId: string
  let host: string
  const email = 'owner@remote.test'
  const password = 'password-for-remote'

  beforeAll(async () => {
    sb = new Sandbox('remote')
    await sb.ok(['init', '--email', email, '--password-stdin', '--no-input'], { input: `${password}\n` })
    const local = sb.profiles().profiles.local
    sb.remember(local.api_key)
    companyId = local.company_id!
    accountId = (await sb.json(['accounts', 'create', '--name', 'Shared', '--type', 'checking', '--currency', 'USD', '--json'])).id
    server = await startServe(sb, sb.database)
    host = new URL(server.url).host
  })

  afterAll(() => stopServeAndCleanup(server, sb))

  it('serve prints the address it listens on', () => {
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(Number(host.split(':')[1])).toBeGreaterThan(0)
  })

  // Linux shows a process's arguments in /proc: the server started itself again with a small young
  // generation (src/cli/server-heap.ts, restartWithServerHeap), as the same process the test spawned.
  if (existsSync('/proc/self/cmdline'))
    it('serve runs with a small young generation, in the process that was started', () => {
      const args = readFileSync(`/proc/${server!.child.pid}/cmdline`, 'utf8').split('\0')
      expect(args).toContain(`--max-semi-space-size=${serverSemiSpaceMb('finctl.db')}`)
      expect(args).toEqual(expect.arrayContaining(['serve', '--port', '0']))
    })

  it('profile add --api-key-stdin stores the piped key for the URL', async () => {
    const key = sb.profiles().profiles.local.api_key!
    const r = await sb.run(['profile', 'add', 'remote', '--base-url', server!.url, '--api-key-stdin'], { input: `${key}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('added profile "remote" with an API key')
    const p = sb.profiles()
    expect(p.profiles.remote).toMatchObject({ target: server!.url, api_key: key })
    expect(p.profiles.remote.access_token).toBeUndefined()
    expect(p.current).toBe('local')
  })

  it('--profile remote whoami --json answers from the server, for the same company', async () => {
    const me = await sb.json(['--profile', 'remote', 'whoami', '--json'])
    expect(me).toMatchObject({
      profile: 'remote',
      target: host,
      company_id: companyId,
      credential: 'api_key',
      scopes: ['read', 'write', 'transactions'],
    })
    const local = await sb.json(['whoami', '--json'])
    expect(local.target).toMatch(/^embedded \(/)
    expect(local.company_id).toBe(companyId)
  })

  it('--profile remote tx create writes through the server into the shared database', async () => {
    const t = await sb.json([
      '--profile',
      'remote',
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-20',
      '--description',
      'Over HTTP',
      '--amount',
      '-149.99',
      '--json',
    ])
    expect(t).toMatchObject({
      bank_account_id: accountId,
      amount: -149.99,
      status: 'pending',
      is_reconciled: false,
      posted_date: '2026-11-20',
    })
    // The embedded CLI, on the same file, sees it.
    const a = await sb.json(['accounts', 'get', accountId, '--json'])
    expect(a.current_balance).toBe(-149.99)
  })

  it('errors map to the same exit codes over HTTP', async () => {
    const missing = await sb.run(['--profile', 'remote', 'accounts', 'get', randomUUID()])
    expect(missing.code).toBe(5)
    const badKey = await sb.run(['--profile', 'remote', 'accounts', 'list'], { env: { FINCTL_API_KEY: `fds_${'x'.repeat(43)}` } })
    expect(badKey.code).toBe(3)
    const badAmount = await sb.run([
      '--profile',
      'remote',
      'tx',
      'create',
      '--account',
      accountId,
      '--date',
      '2026-11-20',
      '--description',
      'X',
      '--amount',
      '1.001',
    ])
    expect(badAmount.code).toBe(6)
    expect(badAmount.stderr).toContain('amount')
  })

  it('after profile use remote, plain commands go to the server', async () => {
    const used = await sb.ok(['profile', 'use', 'remote'])
    expect(used.stderr).toContain('now using profile "remote"')
    expect(sb.profiles().current).toBe('remote')

    const me = await sb.json(['whoami', '--json'])
    expect(me).toMatchObject({ profile: 'remote', target: host, company_id: companyId })

    const r = await sb.run(['--verbose', 'accounts', 'list', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`GET ${server!.url}/api-v1/bank-accounts -> 200`)
    expect(r.stderr).not.toMatch(FULL_KEY_ANYWHERE)
    expect(JSON.parse(r.stdout).map((a: { id: string }) => a.id)).toEqual([accountId])
  })

  it('login and key administration work over HTTP', async () => {
    const login = await sb.run(['login', '--email', email, '--password-stdin'], { input: `${password}\n` })
    expect(login.code, login.stderr).toBe(0)
    expect(login.stderr).toContain(`on ${host}`)
    expect(sb.profiles().profiles.remote.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const created = await sb.json(['keys', 'create', '--name', 'remote-ci', '--scopes', 'read', '--json'])
    sb.remember(created.key)
    const listed = await sb.json<Array<{ id: string }>>(['--profile', 'local', 'keys', 'list', '--json'])
    expect(listed.map((k) => k.id)).toContain(created.id)
  })

  it('keeps no full API key in the database files (with the server running) nor in its logs', () => {
    expectNoSecretsAtRest(sb, sb.database, [password])
    expect(server!.stderr()).not.toMatch(FULL_KEY_ANYWHERE)
    expect(server!.stderr()).not.toContain(sb.profiles().profiles.remote.access_token)
  })
})
