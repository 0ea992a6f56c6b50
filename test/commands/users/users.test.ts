/**
 * `finctl users invite | list | set-role | disable`, `login --invite` and `whoami` in process
 * (test/helpers/in-process-cli.ts): the token shown once, accepted into a profile of its own, the
 * new user's role in whoami, refusals naming the flag, a disabled user refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

const PASSWORD = 'password-of-ana'

describe('users, in process', () => {
  let sb: InProcessSandbox
  let token: string

  beforeAll(async () => {
    sb = new InProcessSandbox('users')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-users\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
    await sb.ok(['profile', 'add', 'ana', '--database', sb.database])
  })
  afterAll(() => sb?.cleanup())

  it('users invite --json prints the token once, with a warning naming login --invite', async () => {
    const r = await sb.run(['users', 'invite', '--email', 'Ana@Users.test', '--role', 'bookkeeper', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const inv = JSON.parse(r.stdout)
    expect(inv).toMatchObject({ email: 'ana@users.test', role: 'bookkeeper' })
    expect(inv.token).toMatch(/^fdi_[0-9A-Za-z]{43}$/)
    token = inv.token
    sb.secrets.add(token)
    expect(r.stderr).toMatch(/^warning: .*only time the invitation token is shown.*finctl login --invite/m)
    expect(r.stderr).not.toContain(token)
  })

  it('a role that does not exist: exit 2 naming --role; no --email: naming --email', async () => {
    const r = await sb.run(['users', 'invite', '--email', 'x@users.test', '--role', 'boss'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--role boss: not one of owner, accountant, bookkeeper, auditor, viewer')
    const e = await sb.run(['users', 'invite', '--role', 'viewer'])
    expect(e.code).toBe(2)
    expect(e.stderr).toContain('--email is required')
    const s = await sb.run(['users', 'set-role', 'ana@users.test', '--role', 'root'])
    expect(s.code).toBe(2)
    expect(s.stderr).toContain('--role root: not one of owner, accountant, bookkeeper, auditor, viewer')
  })

  it('login --invite with --password-stdin accepts it into the profile; whoami shows the user and role', async () => {
    const r = await sb.run(['--profile', 'ana', 'login', '--invite', token, '--password-stdin'], { input: `${PASSWORD}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('Invitation accepted: ana@users.test joined as bookkeeper')
    expect(r.stderr).toContain('token saved in profile "ana"')
    const who = await sb.json(['--profile', 'ana', 'whoami', '--json'])
    expect(who).toMatchObject({ credential: 'access_token', user: 'ana@users.test', role: 'bookkeeper', email: 'ana@users.test' })
    expect(who.scopes).toEqual(['read', 'write', 'transactions', 'reports'])
    const owner = await sb.json(['whoami', '--json'])
    expect(owner).toMatchObject({ role: 'owner' })
    const again = await sb.run(['--profile', 'ana', 'login', '--invite', token, '--password-stdin'], { input: `${PASSWORD}\n` })
    expect(again.code).not.toBe(0)
    expect(again.stderr).toContain('this invitation is not valid')
  })

  it("login --invite into a profile not made yet makes it, on the default profile's books; a refused one makes none", async () => {
    const inv = await sb.json(['users', 'invite', '--email', 'bo@users.test', '--role', 'viewer', '--json'])
    sb.secrets.add(inv.token)
    const bad = await sb.run(['--profile', 'ghost', 'login', '--invite', 'fdi_nothing', '--password-stdin'], { input: `${PASSWORD}\n` })
    expect(bad.code).toBe(3)
    expect(sb.profiles().profiles.ghost).toBeUndefined()
    const r = await sb.run(['--profile', 'bo', 'login', '--invite', inv.token, '--password-stdin'], { input: `${PASSWORD}\n` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('token saved in the new profile "bo"')
    const [bo, local] = [await sb.json(['--profile', 'bo', 'whoami', '--json']), await sb.json(['whoami', '--json'])]
    expect(bo).toMatchObject({ user: 'bo@users.test', role: 'viewer', target: local.target })
    await sb.ok(['users', 'disable', 'bo@users.test', '--yes'])
  })

  it('a bookkeeper may not invite an owner; users list shows both', async () => {
    const r = await sb.run(['--profile', 'ana', 'users', 'invite', '--email', 'boss@users.test', '--role', 'owner'])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/users scope/)
    const list = await sb.json(['--profile', 'ana', 'users', 'list', '--json'])
    expect(list.map((u: { email: string; role: string }) => [u.email, u.role]).sort()).toEqual(
      expect.arrayContaining([['ana@users.test', 'bookkeeper']]),
    )
    expect(list).toHaveLength(3)
    const table = await sb.ok(['users', 'list'])
    expect(table.stdout).toMatch(/ana@users\.test\s+bookkeeper\s+active/)
  })

  it('set-role and disable: the disabled user is refused', async () => {
    const s = await sb.json(['users', 'set-role', 'ana@users.test', '--role', 'auditor', '--json'])
    expect(s).toMatchObject({ email: 'ana@users.test', role: 'auditor' })
    expect((await sb.json(['--profile', 'ana', 'whoami', '--json'])).role).toBe('auditor')
    const d = await sb.run(['users', 'disable', 'ana@users.test', '--yes'])
    expect(d.code, d.stderr).toBe(0)
    expect(d.stderr).toContain('disabled ana@users.test')
    const who = await sb.run(['--profile', 'ana', 'whoami'])
    expect(who.code).not.toBe(0)
    expect(who.stderr).toContain('this user is disabled')
    const login = await sb.run(['--profile', 'ana', 'login', '--email', 'ana@users.test', '--password-stdin'], { input: `${PASSWORD}\n` })
    expect(login.code).not.toBe(0)
    expect(login.stderr).toContain('this user is disabled')
  })
})
