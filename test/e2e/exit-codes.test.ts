/**
 * End-to-end: the exit-code table of docs/cli.md (Output and behaviour) through the built CLI (no terminal, its own
 * FINCTL_CONFIG_DIR): 2 usage, 3 not authenticated, 4 forbidden, 5 not found, 7 rate limited,
 * 10 unreachable. (6, validation, is in cli.test.ts with the transactions.)
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, closedPort, expectNoSecretsAtRest } from '../helpers/cli.js'

describe('exit codes', () => {
  let sb: Sandbox
  let accountId: string
  let readOnly: string
  beforeAll(async () => {
    sb = new Sandbox('exit')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-exit\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    accountId = (await sb.json(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--currency', 'USD', '--json'])).id
    readOnly = sb.remember((await sb.json(['keys', 'create', '--name', 'reader', '--scopes', 'read', '--json'])).key)
  })
  afterAll(() => sb?.cleanup())

  it('an unknown flag or option value exits 2', async () => {
    for (const args of [
      ['accounts', 'list', '--no-such-flag'],
      ['--no-such-flag', 'whoami'],
      ['--output', 'xml', 'accounts', 'list'],
    ]) {
      const r = await sb.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/^error: /)
    }
  })

  it('a file argument that is missing, a folder or a device exits 2 and says which', async () => {
    const cases: Array<[string, RegExp]> = [
      [`${sb.dir}/missing.csv`, /^error: no such file: .*missing\.csv\n$/],
      [sb.dir, /^error: .* is a folder: give the path of a file in it\n$/],
      ['/dev/null', /^error: \/dev\/null is not a regular file \(a pipe or a device\)/],
    ]
    for (const [path, message] of cases) {
      for (const args of [
        ['tx', 'import', path, '--account', accountId],
        ['statements', 'upload', path, '--account', accountId],
        ['seed', path],
      ]) {
        const r = await sb.run(args)
        expect(r.code, args.join(' ')).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr, args.join(' ')).toMatch(message)
      }
    }
  })

  it('an unknown API key exits 3', async () => {
    const r = await sb.run(['accounts', 'list'], { env: { FINCTL_API_KEY: `fds_${'x'.repeat(43)}` } })
    expect(r.code).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: /)
  })

  it('a read-only key creating a transaction exits 4', async () => {
    const r = await sb.run(['tx', 'create', '--account', accountId, '--date', '2026-11-20', '--description', 'X', '--amount', '-1.00'], {
      env: { FINCTL_API_KEY: readOnly },
    })
    expect(r.code).toBe(4)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: .*scope/)
  })

  it('an unknown id exits 5', async () => {
    const r = await sb.run(['accounts', 'get', randomUUID()])
    expect(r.code).toBe(5)
    expect(r.stderr).toMatch(/^error: .*not found/)
  })

  it('a refused request (429) with retries off exits 7', async () => {
    const limited = sb.remember(
      (await sb.json(['keys', 'create', '--name', 'tiny', '--scopes', 'read', '--rate-limit-per-day', '1', '--json'])).key,
    )
    expect((await sb.run(['accounts', 'list'], { env: { FINCTL_API_KEY: limited } })).code).toBe(0)
    const r = await sb.run(['accounts', 'list'], { env: { FINCTL_API_KEY: limited, FINCTL_MAX_RETRIES: '0' } })
    expect(r.code).toBe(7)
    expect(r.stderr).toMatch(/^error: .*rate limit/)
  })

  it('an unreachable base URL exits 10', async () => {
    const port = await closedPort()
    for (const url of ['http://127.0.0.1:9', `http://127.0.0.1:${port}`]) {
      const r = await sb.run(['--base-url', url, 'accounts', 'list'])
      expect(r.code, url).toBe(10)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`error: cannot reach ${url}`)
    }
  })

  it('keeps no full API key in the database files', () => {
    expectNoSecretsAtRest(sb, sb.database, ['password-for-exit'])
  })
})
