/**
 * `finctl login --invite` on a terminal: the new password is asked twice (never a flag), the
 * invitation accepted with it, and the token kept in the profile. The host is a fake (prompts over
 * memory streams, a client that records the call); the end to end run is test/commands/users/users.test.ts.
 */
import { PassThrough, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type LoginHost, runLogin } from '../../../commands/auth/login.js'

/** `typed`: keys typed once the terminal shows the prompt's words (not at a time: a loaded machine is slow). */
function fakeHost(typed: Array<[prompt: string, keys: string]>) {
  const stdin = new PassThrough()
  let shown = ''
  // Like process.stderr, it outlives a prompt that ends the stream piped into it.
  const stderr = new Writable({
    write(chunk, _enc, done) {
      shown += String(chunk)
      const next = typed[0]
      if (next && shown.includes(next[0])) {
        typed.shift()
        setImmediate(() => stdin.write(next[1]))
      }
      done()
    },
  })
  stderr.end = (() => stderr) as typeof stderr.end
  const accepted: Array<{ token: string; password: string }> = []
  const saved: Array<{ name: string; patch: Record<string, unknown> }> = []
  const client = {
    acceptInvite: async (token: string, password: string) => {
      accepted.push({ token, password })
      return {
        access_token: 'jwt.for.ana',
        token_type: 'Bearer',
        expires_in: 86_400,
        scopes: ['reports'],
        user: { id: 'u1', email: 'ana@acme.test', role: 'viewer' },
      }
    },
  }
  const host = {
    io: { stdin, stderr, stdout: new PassThrough(), env: {}, now: () => new Date('2026-11-26T12:00:00Z') },
    printer: { quiet: false },
    globals: {},
    canPrompt: () => true,
    client: async () => client,
    profileName: () => 'ana',
    profile: () => undefined,
    draftProfile: () => undefined,
    target: () => ({ kind: 'remote', baseUrl: 'https://finctl.example' }),
    describeTarget: () => 'https://finctl.example',
    secrets: () => ({
      save: (name: string, patch: Record<string, unknown>) => {
        saved.push({ name, patch })
        return 'file'
      },
    }),
  } as unknown as LoginHost
  return { host, accepted, saved, shown: () => shown }
}

describe('login --invite on a terminal', () => {
  it('asks for the new password twice, accepts the invitation with it, keeps the token', async () => {
    const f = fakeHost([
      ['New password', 'a new password\r'],
      ['Type it again', 'a new password\r'],
    ])
    expect(await runLogin(f.host, { invite: ' fdi_token ' })).toBe(0)
    expect(f.accepted).toEqual([{ token: 'fdi_token', password: 'a new password' }])
    expect(f.saved).toHaveLength(1)
    expect(f.saved[0]).toMatchObject({ name: 'ana', patch: { access_token: 'jwt.for.ana', email: 'ana@acme.test' } })
    expect(f.shown()).toContain('Type it again')
    expect(f.shown()).toContain('Invitation accepted: ana@acme.test joined as viewer')
    expect(f.shown()).not.toContain('a new password')
  })

  it('without a terminal nor --password-stdin: a usage error naming --password-stdin, nothing accepted', async () => {
    const f = fakeHost([])
    const host = { ...f.host, canPrompt: () => false } as LoginHost
    await expect(runLogin(host, { invite: 'fdi_token' })).rejects.toThrow(/--password-stdin/)
    expect(f.accepted).toEqual([])
    await expect(runLogin(host, { invite: 'fdi_token', email: 'x@y.test' })).rejects.toThrow(/--invite or --email, not both/)
  })
})
