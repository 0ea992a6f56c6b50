/**
 * `finctl profile list | show | use | add | remove | protect | unprotect` in process
 * (test/helpers/in-process-cli.ts): tables and --json with the secrets masked, the current profile
 * marked and switched, usage errors naming the flag or the name (exit 2), a profile not found
 * (exit 5). Writes through a protected profile: test/e2e/safety.test.ts; the OS keyring:
 * test/e2e/keyring.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_KEY_ANYWHERE } from '../../helpers/cli.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

interface Shown {
  name: string
  current: boolean
  target: string
  database: string | null
  api_key: string | null
  access_token: string | null
  api_key_storage: string | null
  access_token_storage: string | null
  protected: boolean
}

const STAGING_KEY = `fds_${'S'.repeat(43)}`

describe('profile, in process', () => {
  let sb: InProcessSandbox

  beforeAll(() => {
    sb = new InProcessSandbox('profile')
  })
  afterAll(() => sb?.cleanup())

  it('list: none yet (the header and a note on a terminal, [] as --json)', async () => {
    expect(await sb.json(['profile', 'list', '--json'])).toEqual([])
    const r = await sb.ok(['profile', 'list'], { tty: { stderr: true } })
    expect(r.stdout).toBe('CURRENT\tNAME\tTARGET\tCREDENTIALS\n')
    expect(r.stderr).toContain('no profiles yet: run `finctl init` or `finctl profile add NAME --base-url URL`')
  })

  it('add: a remote profile with a key from stdin (the first becomes current), an embedded one with --use', async () => {
    const staging = await sb.ok(['profile', 'add', 'staging', '--base-url', 'https://finctl.example.com/', '--api-key-stdin'], {
      input: `${STAGING_KEY}\n`,
    })
    expect(staging.stderr).toContain('added profile "staging" with an API key in profiles.json (mode 0600)')
    expect(sb.profiles()).toMatchObject({
      current: 'staging',
      profiles: { staging: { target: 'https://finctl.example.com', api_key: STAGING_KEY } },
    })
    const books = await sb.ok(['profile', 'add', 'books', '--database', sb.path('books.db'), '--protected', '--use'])
    expect(books.stderr).toContain('added profile "books" and made it current')
    expect(sb.profiles()).toMatchObject({ current: 'books', profiles: { books: { target: 'embedded', database: sb.path('books.db') } } })
  })

  it('add: usage errors name what is wrong (exit 2) and add nothing', async () => {
    for (const [args, message] of [
      [['bad name', '--base-url', 'http://x.test'], '"bad name" is not a valid profile name (letters, digits, . _ -)'],
      [['nowhere'], 'give --base-url URL (a remote service) or --database PATH (embedded)'],
      [['odd', '--base-url', 'not a url'], '--base-url: "not a url" is not a URL'],
      [['ftp', '--base-url', 'ftp://x.test'], '--base-url must start with http:// or https://'],
      [['staging', '--base-url', 'http://x.test'], 'profile "staging" already exists: remove it first'],
    ] as const) {
      const r = await sb.run(['profile', 'add', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toContain(message)
    }
    expect(Object.keys(sb.profiles().profiles).sort()).toEqual(['books', 'staging'])
  })

  it('list: a table with the current one marked and the kinds of credentials; --json masks the key', async () => {
    const r = await sb.ok(['profile', 'list'])
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'CURRENT\tNAME\tTARGET\tCREDENTIALS',
      '\tstaging\thttps://finctl.example.com\tapi key',
      '*\tbooks\tembedded\tnone',
    ])
    const list = await sb.json<Shown[]>(['profile', 'list', '--json'])
    expect(list.map((p) => [p.name, p.current, p.api_key_storage, p.protected])).toEqual([
      ['staging', false, 'profiles.json', false],
      ['books', true, null, true],
    ])
    expect(JSON.stringify(list)).not.toMatch(FULL_KEY_ANYWHERE)
  })

  it('show: the current profile by default, or the one named; its key masked; not found is exit 5', async () => {
    const current = await sb.json<Shown>(['profile', 'show', '--json'])
    expect(current).toMatchObject({ name: 'books', current: true, database: sb.path('books.db'), api_key: null, protected: true })
    const staging = await sb.json<Shown>(['profile', 'show', 'staging', '--json'])
    expect(staging).toMatchObject({
      name: 'staging',
      current: false,
      target: 'https://finctl.example.com',
      api_key_storage: 'profiles.json',
    })
    expect(staging.api_key).not.toBe(STAGING_KEY)
    expect(staging.api_key).toMatch(/^fds_S/)
    const table = await sb.ok(['profile', 'show', 'staging'])
    expect(table.stdout).toContain('target\thttps://finctl.example.com')
    expect(table.stdout).not.toContain(STAGING_KEY)
    const gone = await sb.run(['profile', 'show', 'nope'])
    expect(gone.code).toBe(5)
    expect(gone.stderr).toContain('no profile named "nope"')
  })

  it('use: makes a profile current; one not there is exit 5, naming `finctl profile list`', async () => {
    const r = await sb.ok(['profile', 'use', 'staging'])
    expect(r.stderr).toContain('now using profile "staging"')
    expect(sb.profiles().current).toBe('staging')
    const gone = await sb.run(['profile', 'use', 'nope'])
    expect(gone.code).toBe(5)
    expect(gone.stderr).toContain('no profile named "nope": see `finctl profile list`')
    expect(sb.profiles().current).toBe('staging')
    const none = await sb.run(['profile', 'use'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("missing required argument 'name'")
  })

  it('protect and unprotect switch the mark; profile show tells it; a profile not there is exit 5', async () => {
    const on = await sb.ok(['profile', 'protect', 'staging'])
    expect(on.stderr).toContain('profile "staging" is protected: writes through it ask to type its name (or need --yes)')
    expect(await sb.json(['profile', 'show', 'staging', '--json'])).toMatchObject({ protected: true })
    const off = await sb.ok(['profile', 'unprotect', 'staging'])
    expect(off.stderr).toContain('profile "staging" is no longer protected')
    expect(sb.profiles().profiles.staging).not.toHaveProperty('protected')
    expect(await sb.json(['profile', 'show', 'staging', '--json'])).toMatchObject({ protected: false })
    for (const verb of ['protect', 'unprotect']) expect((await sb.run(['profile', verb, 'nope'])).code, verb).toBe(5)
  })

  it('remove: the profile and its key go; one not there is exit 5', async () => {
    const r = await sb.ok(['profile', 'remove', 'staging'])
    expect(r.stderr).toContain('removed profile "staging"')
    expect(Object.keys(sb.profiles().profiles)).toEqual(['books'])
    expect(JSON.stringify(sb.profiles())).not.toContain(STAGING_KEY)
    const gone = await sb.run(['profile', 'remove', 'staging'])
    expect(gone.code).toBe(5)
    expect(gone.stderr).toContain('no profile named "staging"')
  })
})
