/**
 * `finctl users invitations` and `users revoke-invite` in process: the pending invitations with
 * their expiry and never a token; a revoked one cannot be accepted (exit 3), nor revoked twice (6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('users invitations and revoke-invite, in process', () => {
  let sb: InProcessSandbox

  beforeAll(async () => {
    sb = new InProcessSandbox('invitations')
    await sb.ok(['init', '--password-stdin', '--no-input'], { input: 'password-for-invitations\n' })
    sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(() => sb?.cleanup())

  it('lists the pending invitation with its id and expiry, never its token; revoked, it cannot be accepted', async () => {
    const inv = await sb.json(['users', 'invite', '--email', 'ana@inv.test', '--role', 'bookkeeper', '--json'])
    sb.secrets.add(inv.token)
    const table = await sb.run(['users', 'invitations'])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(inv.id)
    expect(table.stdout).toContain('ana@inv.test')
    expect(table.stdout).toContain('pending')
    expect(table.stdout).toContain(inv.expires_at.slice(0, 10))
    expect(table.stdout).not.toContain(inv.token)
    // The inviter by email in the table; --json keeps the id.
    const me = await sb.json(['whoami', '--json'])
    expect(table.stdout).toMatch(new RegExp(`pending\\s.*\\s${me.user.replace('.', '\\.')}`))
    expect(table.stdout).not.toContain(me.user_id)
    expect(await sb.json(['users', 'invitations', '--json'])).toEqual([
      expect.objectContaining({ id: inv.id, state: 'pending', invited_by: me.user_id }),
    ])
    const r = await sb.run(['users', 'revoke-invite', inv.id])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`revoked the invitation of ana@inv.test (${inv.id})`)
    expect(await sb.json(['users', 'invitations', '--json'])).toEqual([])
    expect(await sb.json(['users', 'invitations', '--all', '--json'])).toEqual([expect.objectContaining({ id: inv.id, state: 'revoked' })])
    const login = await sb.run(['--profile', 'ana', 'login', '--invite', inv.token, '--password-stdin'], { input: 'password-of-ana\n' })
    expect(login.code).toBe(3)
    expect(login.stderr).toContain('revoked')
    const again = await sb.run(['users', 'revoke-invite', inv.id])
    expect(again.code).toBe(6)
    expect(again.stderr).toContain('was revoked already')
  })
})
