/**
 * `finctl keys list | show | usage | create | roll | revoke` in process (test/helpers/in-process-cli.ts):
 * each verb's table and --json, the key shown once, --save-profile and --output-file (mode 0600), the
 * usage counts, usage errors (exit 2, the flag named), a key not found (exit 5). A key kept in
 * the OS keyring: test/e2e/keyring.test.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY, FULL_KEY_ANYWHERE, expectNoSecretsAtRest, tsv } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface KeyRecord {
  id: string
  name: string
  key_prefix: string
  scopes: string[]
  is_active: boolean
  revoked_at: string | null
  key?: string
}

interface Usage {
  total_requests: number
  last_24h_requests: number
  endpoints: Record<string, number>
  status_codes: Record<string, number>
  recent_requests: Array<{ endpoint: string; method: string; status_code: number }>
}

describe('API keys, in process', () => {
  let sb: InProcessSandbox
  let ci: KeyRecord & { key: string }
  const withKey = (key: string) => ({ env: { FINCTL_API_KEY: key } })

  beforeAll(async () => {
    sb = new InProcessSandbox('keys')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-keys\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('keys create --json prints the full key once, with a warning on stderr', async () => {
    const r = await sb.run(['keys', 'create', '--name', 'ci', '--scopes', 'read', '--json'])
    expect(r.code, r.stderr).toBe(0)
    ci = JSON.parse(r.stdout)
    expect(ci.key).toMatch(FULL_KEY)
    sb.remember(ci.key)
    expect(ci).toMatchObject({ name: 'ci', scopes: ['read'], is_active: true, revoked_at: null, key_prefix: ci.key.slice(0, 12) })
    expect(r.stderr).toMatch(/^warning: .*only time the full key is shown/m)
    expect(r.stderr).not.toContain(ci.key)
  })

  it('keys list --json contains it, without the key; the table has a row per key', async () => {
    const r = await sb.ok(['keys', 'list', '--json'])
    expect(r.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    const keys: KeyRecord[] = JSON.parse(r.stdout)
    expect(keys.map((k) => k.name).sort()).toEqual(['ci', 'finctl CLI'])
    const listed = keys.find((k) => k.id === ci.id)
    expect(listed).toBeDefined()
    expect(listed).not.toHaveProperty('key')
    expect(listed).toMatchObject({ name: 'ci', key_prefix: ci.key_prefix, scopes: ['read'] })
    const table = await sb.ok(['keys', 'list'])
    expect(table.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    const [header, ...rows] = tsv(table.stdout)
    expect(header).toContain('NAME')
    expect(rows).toHaveLength(2)
    expect(rows.map((row) => row[header.indexOf('NAME')]).sort()).toEqual(['ci', 'finctl CLI'])
  })

  it('keys list --status: a bad value exits 2 naming --status', async () => {
    const r = await sb.run(['keys', 'list', '--status', 'sleeping'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('error: --status sleeping: not one of active, revoked, expired, all\n')
    expect(r.stdout).toBe('')
  })

  it('keys show --json with FINCTL_API_KEY shows that key; the table adds the status of the key in use', async () => {
    const shown = await sb.json<KeyRecord>(['keys', 'show', '--json'], withKey(ci.key))
    expect(shown.id).toBe(ci.id)
    expect(shown.name).toBe('ci')
    expect(shown).not.toHaveProperty('key')
    // The key in use here is the profile's: the table adds its status.
    const table = Object.fromEntries(tsv((await sb.ok(['keys', 'show'])).stdout).slice(1))
    expect(table).toMatchObject({ name: 'finctl CLI', status: 'active' })
  })

  it('keys usage counts exactly the requests made with the key, not itself', async () => {
    // So far: one GET /api-keys/me (keys show). Now three lists and one 404.
    for (let i = 0; i < 3; i++) await sb.ok(['accounts', 'list', '--json'], withKey(ci.key))
    const missing = await sb.run(['accounts', 'get', randomUUID()], withKey(ci.key))
    expect(missing.code).toBe(5)

    const u = await sb.json<Usage>(['keys', 'usage', '--json'], withKey(ci.key))
    expect(u.total_requests).toBe(5)
    expect(u.last_24h_requests).toBe(5)
    expect(u.endpoints).toEqual({ '/api-keys/me': 1, '/api-v1/bank-accounts': 3, '/api-v1/bank-accounts/{id}': 1 })
    expect(u.status_codes).toEqual({ '200': 4, '404': 1 })
    expect(u.recent_requests).toHaveLength(5)
    expect(u.recent_requests[0]).toMatchObject({ endpoint: '/api-v1/bank-accounts/{id}', method: 'GET', status_code: 404 })

    // A usage read does not count itself, but the next read counts it.
    const again = await sb.json<Usage>(['keys', 'usage', '--json'], withKey(ci.key))
    expect(again.total_requests).toBe(6)
    expect(again.endpoints).toEqual({ ...u.endpoints, '/api-keys/me/usage': 1 })

    // The owner reads the same numbers with --key-id, through the login token: not a request of the key.
    const byId = await sb.json<Usage>(['keys', 'usage', '--key-id', ci.id, '--json'])
    expect(byId.total_requests).toBe(7)
    expect(byId.endpoints['/api-keys/me/usage']).toBe(2)
    const byIdAgain = await sb.json<Usage>(['keys', 'usage', '--key-id', ci.id, '--json'])
    expect(byIdAgain.total_requests).toBe(7)
  })

  it('keys usage as tables: the totals, the endpoints by count, the status codes, the recent requests', async () => {
    const r = await sb.ok(['keys', 'usage', '--key-id', ci.id, '--recent', '2'])
    const rows = tsv(r.stdout)
    expect(rows[0]).toEqual(['FIELD', 'VALUE'])
    expect(rows).toContainEqual(['total_requests', '7'])
    expect(rows).toContainEqual(['ENDPOINT', 'REQUESTS'])
    expect(rows).toContainEqual(['/api-v1/bank-accounts', '3'])
    expect(rows).toContainEqual(['STATUS', 'REQUESTS'])
    expect(rows).toContainEqual(['404', '1'])
    const recent = rows.findIndex((row) => row[0] === 'TIME')
    expect(rows[recent]).toEqual(['TIME', 'METHOD', 'ENDPOINT', 'STATUS', 'MS'])
    expect(rows.slice(recent + 1)).toHaveLength(2)
  })

  it('keys usage: --recent over 100 or not a number exits 2 naming --recent; an unknown --key-id exits 5', async () => {
    for (const recent of ['101', 'many']) {
      const r = await sb.run(['keys', 'usage', '--recent', recent])
      expect(r.code, recent).toBe(2)
      expect(r.stderr).toMatch(/^error: --recent /)
    }
    const unknown = await sb.run(['keys', 'usage', '--key-id', randomUUID()])
    expect(unknown.code).toBe(5)
    expect(unknown.stdout).toBe('')
  })

  it('keys revoke without --yes and without a terminal exits 2 and revokes nothing', async () => {
    const r = await sb.run(['keys', 'revoke', ci.id])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`error: Revoke API key ${ci.id}: this cannot be undone; give --yes to confirm\n`)
    const still = await sb.json<KeyRecord[]>(['keys', 'list', '--status', 'active', '--json'])
    expect(still.map((k) => k.id)).toContain(ci.id)
  })

  it('keys revoke of a key that does not exist exits 5', async () => {
    const r = await sb.run(['keys', 'revoke', randomUUID(), '--yes'])
    expect(r.code, r.stderr).toBe(5)
    expect(r.stdout).toBe('')
  })

  it('keys revoke ID --yes revokes it; using it then exits 3', async () => {
    const revoked = await sb.json<KeyRecord>(['keys', 'revoke', ci.id, '--yes', '--json'])
    expect(revoked.id).toBe(ci.id)
    expect(revoked.revoked_at).not.toBeNull()
    expect(revoked.is_active).toBe(false)

    const r = await sb.run(['accounts', 'list'], withKey(ci.key))
    expect(r.code).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: .*revoked/)

    const listed = await sb.json<KeyRecord[]>(['keys', 'list', '--status', 'revoked', '--json'])
    expect(listed.map((k) => k.id)).toEqual([ci.id])
  })

  it('keys create --save-profile stores the key in that profile and does not print it', async () => {
    const r = await sb.run(['keys', 'create', '--name', 'saved', '--scopes', 'read,transactions', '--save-profile', 'robot', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    expect(r.stderr).not.toMatch(FULL_KEY_ANYWHERE)
    const record: KeyRecord = JSON.parse(r.stdout)
    expect(record).not.toHaveProperty('key')
    expect(record.scopes).toEqual(['read', 'transactions'])
    const saved = sb.profiles().profiles.robot
    expect(saved.target).toBe('embedded')
    const key = sb.remember(saved.api_key)
    expect(key.slice(0, 12)).toBe(record.key_prefix)
    // The current profile did not change, and the saved key works.
    expect(sb.profiles().current).toBe('local')
    const shown = await sb.json<KeyRecord>(['--profile', 'robot', 'keys', 'show', '--json'])
    expect(shown.id).toBe(record.id)
  })

  it('keys create --output-file writes the key to a 0600 file and not to stdout', async () => {
    const file = sb.path('ci.key')
    const r = await sb.run(['keys', 'create', '--name', 'file', '--scopes', 'read', '--output-file', file, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const content = readFileSync(file, 'utf8')
    expect(content).toMatch(/^fds_[0-9A-Za-z]{43}\n$/)
    const key = sb.remember(content.trim())
    const record: KeyRecord = JSON.parse(r.stdout)
    const shown = await sb.json<KeyRecord>(['keys', 'show', '--json'], withKey(key))
    expect(shown.id).toBe(record.id)
  })

  it('keys create refuses an existing --output-file or a bad --save-profile name before creating a key', async () => {
    const file = sb.path('ci.key')
    const before = readFileSync(file, 'utf8')
    const count = (await sb.json<KeyRecord[]>(['keys', 'list', '--json'])).length
    const r = await sb.run(['keys', 'create', '--name', 'again', '--scopes', 'read', '--output-file', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^error: --output-file: .* already exists/)
    expect(readFileSync(file, 'utf8')).toBe(before)
    const badName = await sb.run(['keys', 'create', '--name', 'again', '--scopes', 'read', '--save-profile', '../evil'])
    expect(badName.code).toBe(2)
    expect(badName.stderr).toContain('--save-profile')
    expect(sb.profiles().profiles['../evil']).toBeUndefined()
    expect(await sb.json<KeyRecord[]>(['keys', 'list', '--json'])).toHaveLength(count)
  })

  it('keys create: usage errors name the flag (exit 2) and create no key', async () => {
    const count = (await sb.json<KeyRecord[]>(['keys', 'list', '--json'])).length
    const cases: Array<[string[], string]> = [
      [['--scopes', 'read'], 'a name for the key is required: give --name'],
      [['--name', 'x'], 'scopes are required: give --scopes read,write,transactions'],
      [['--name', 'x', '--scopes', 'read,admin'], '--scopes: unknown scope admin (use read, write'],
      [
        ['--name', 'x', '--scopes', 'read', '--expires-in', '90d', '--expires-at', '2030-01-01T00:00:00Z'],
        'give --expires-at or --expires-in, not both',
      ],
      [['--name', 'x', '--scopes', 'read', '--expires-in', 'soon'], '--expires-in'],
      [['--name', 'x', '--scopes', 'read', '--rate-limit-per-day', 'lots'], '--rate-limit-per-day'],
      [
        ['--name', 'x', '--scopes', 'read', '--save-profile', 'p', '--output-file', sb.path('p.key')],
        'give --save-profile or --output-file, not both',
      ],
    ]
    for (const [flags, message] of cases) {
      const r = await sb.run(['keys', 'create', ...flags])
      expect(r.code, flags.join(' ')).toBe(2)
      expect(r.stderr, flags.join(' ')).toContain(message)
      expect(r.stdout).toBe('')
    }
    expect(existsSync(sb.path('p.key'))).toBe(false)
    expect(await sb.json<KeyRecord[]>(['keys', 'list', '--json'])).toHaveLength(count)
  })

  it('keys create as a table: the record, then the full key alone on the last line of stdout', async () => {
    const r = await sb.ok(['keys', 'create', '--name', 'table', '--scopes', 'read', '--expires-in', '90d'])
    const lines = r.stdout.trimEnd().split('\n')
    const key = sb.remember(lines.at(-1))
    const record = Object.fromEntries(tsv(lines.slice(0, -1).join('\n')).slice(1))
    expect(record).toMatchObject({ name: 'table', key_prefix: key.slice(0, 12) })
    expect(Date.parse(record.expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000)
    expect(r.stderr).toMatch(/^warning: .*only time the full key is shown/m)
  })

  it('keys create --output-file leaves no file behind when the key cannot be created', async () => {
    const file = sb.path('refused.key')
    // A key of the profile "robot" (read, transactions) has no right to create keys.
    const r = await sb.run(['--profile', 'robot', 'keys', 'create', '--name', 'nope', '--scopes', 'read', '--output-file', file])
    expect(r.code).toBe(4)
    expect(existsSync(file)).toBe(false)
  })

  it('keeps no full API key in the database files', () => {
    expect(sb.secrets.size).toBe(5)
    expectNoSecretsAtRest(sb, sb.database, ['password-for-keys'])
  })
})

describe('keys roll, in process', () => {
  let sb: InProcessSandbox
  beforeAll(async () => {
    sb = new InProcessSandbox('keys-roll')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-keys\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('puts the successor in a profile; the old key keeps working through the grace; the list shows the pair', async () => {
    const old = await sb.json<KeyRecord & { key: string }>(['keys', 'create', '--name', 'importer', '--scopes', 'read,write', '--json'])
    sb.remember(old.key)
    const r = await sb.run(['keys', 'roll', old.id, '--grace', '2h', '--save-profile', 'importer'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout + r.stderr).not.toMatch(FULL_KEY_ANYWHERE)
    expect(r.stderr).toMatch(new RegExp(`the old key ${old.key_prefix}… keeps working until \\S+, then it is revoked`))
    const saved = sb.profiles().profiles.importer.api_key as string
    sb.remember(saved)
    expect(saved).toMatch(FULL_KEY)
    expect(saved).not.toBe(old.key)
    // Both keys work during the grace.
    await sb.ok(['accounts', 'list', '--json'], { env: { FINCTL_API_KEY: old.key } })
    const successor = await sb.json<KeyRecord & { rolled_from: string }>(['keys', 'show', '--json'], { env: { FINCTL_API_KEY: saved } })
    expect(successor).toMatchObject({ name: 'importer', scopes: ['read', 'write'], rolled_from: old.id })
    const table = await sb.ok(['keys', 'list'], { env: { COLUMNS: '200' } })
    expect(table.stdout).toContain(`to ${successor.id.slice(-8)}`)
    expect(table.stdout).toContain(`from ${old.id.slice(-8)}`)
    expect(table.stdout).toContain('rolling until')
  })

  it('a grace over 7 days or not a duration is a usage error naming --grace, and nothing is rolled', async () => {
    const k = await sb.json<KeyRecord & { key: string }>(['keys', 'create', '--name', 'long', '--scopes', 'read', '--json'])
    sb.remember(k.key)
    for (const grace of ['8d', 'soon']) {
      const r = await sb.run(['keys', 'roll', k.id, '--grace', grace])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toContain('--grace')
    }
    // A field the answer does not have is refused before the roll: the new key's one showing is not lost.
    const field = await sb.run(['keys', 'roll', k.id, '--json', 'id'])
    expect(field.code, field.stderr).toBe(2)
    expect(field.stderr).toContain('unknown field "id"')
    const keys = await sb.json<Array<KeyRecord & { rolled_to: string | null }>>(['keys', 'list', '--json'])
    expect(keys.find((x) => x.id === k.id)?.rolled_to).toBeNull()
  })

  it('--grace 0 revokes the old key at once; --output-file takes the successor, --json the pair without it', async () => {
    const k = await sb.json<KeyRecord & { key: string }>(['keys', 'create', '--name', 'now', '--scopes', 'read', '--json'])
    sb.remember(k.key)
    const file = sb.path('now.key')
    // A unique prefix of the id names the key.
    const r = await sb.run(['keys', 'roll', k.id.slice(0, 8), '--grace', '0', '--output-file', file, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toMatch(FULL_KEY_ANYWHERE)
    expect(r.stderr).toContain(`the old key ${k.key_prefix}… is revoked (grace 0)`)
    // The same {key, previous} as without --output-file, the secret left out.
    const pair = JSON.parse(r.stdout) as { key: KeyRecord & { rolled_from: string }; previous: KeyRecord }
    const successor = pair.key
    expect(successor).toMatchObject({ name: 'now', rolled_from: k.id, is_active: true })
    expect(successor).not.toHaveProperty('key')
    expect(pair.previous).toMatchObject({ id: k.id })
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(sb.remember(readFileSync(file, 'utf8').trim()).slice(0, 12)).toBe(successor.key_prefix)
    const revoked = await sb.json<KeyRecord[]>(['keys', 'list', '--status', 'revoked', '--json'])
    expect(revoked.map((x) => x.id)).toEqual([k.id])
    expect((await sb.run(['accounts', 'list'], { env: { FINCTL_API_KEY: k.key } })).code).toBe(3)
  })

  it('a key that does not exist exits 5 and writes no --output-file', async () => {
    const file = sb.path('none.key')
    const r = await sb.run(['keys', 'roll', randomUUID(), '--output-file', file])
    expect(r.code, r.stderr).toBe(5)
    expect(existsSync(file)).toBe(false)
  })
})
