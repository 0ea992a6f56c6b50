/**
 * A second invitation for the same email replaces the first: the first's token stops (accepting it
 * is refused as revoked), the second is the one live token, and `users invite` says which it
 * replaced; embedded and through `finctl serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TARGET_KINDS, type Target, openTarget } from '../../helpers/two-targets.js'

describe.each(TARGET_KINDS)('users invite twice for one email (%s)', (kind) => {
  let t: Target
  beforeAll(async () => {
    t = await openTarget(kind, 'invites')
  })
  afterAll(() => t?.close())

  const accept = (token: string) =>
    t.run(['--profile', 'carol', ...(t.baseUrl ? ['--base-url', t.baseUrl] : []), 'login', '--invite', token, '--password-stdin'], {
      input: 'password-of-carol\n',
    })

  it("the second replaces the first: the first's token stops, the second's is accepted", async () => {
    const first = await t.json(['users', 'invite', '--email', 'carol@invites.test', '--role', 'viewer', '--json'])
    t.sb.secrets.add(first.token)
    expect(first.replaced).toEqual([])
    const second = await t.run(['users', 'invite', '--email', 'carol@invites.test', '--role', 'bookkeeper'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain(`replaces the pending invitation of carol@invites.test (${first.id}): its token no longer works`)
    const token = /^token\t(\S+)$/m.exec(second.stdout)?.[1]
    expect(token).toMatch(/^fdi_/)
    const pending = await t.json<Array<{ id: string; role: string }>>(['users', 'invitations', '--json'])
    expect(pending.map((i) => i.role)).toEqual(['bookkeeper'])
    const all = await t.json<Array<{ id: string; state: string }>>(['users', 'invitations', '--all', '--json'])
    expect(all.find((i) => i.id === first.id)?.state).toBe('revoked')

    const old = await accept(first.token)
    expect(old.code).toBe(3)
    expect(old.stderr).toContain('this invitation was revoked at')
    const ok = await accept(token!)
    expect(ok.code, ok.stderr).toBe(0)
    const users = await t.json<Array<{ email: string; role: string }>>(['users', 'list', '--json'])
    expect(users.find((u) => u.email === 'carol@invites.test')?.role).toBe('bookkeeper')
  })
})
