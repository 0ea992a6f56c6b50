/**
 * Messages about credentials in the command line's words: no credentials names
 * --api-key, FINCTL_API_KEY, `finctl login` and --profile (not X-API-Key); a wrong password at
 * `login` does not suggest running `finctl login`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('credential messages, in process', () => {
  let sb: InProcessSandbox
  let empty: string

  beforeAll(async () => {
    sb = new InProcessSandbox('credential-words')
    await sb.ok(['init', '--company', 'Cred Co', '--currency', 'USD', '--email', 'o@cred.test', '--password-stdin', '--no-input'], {
      input: 'password-for-cred\n',
    })
    empty = mkdtempSync(join(tmpdir(), 'finctl-cred-empty-'))
  })
  afterAll(() => {
    rmSync(empty, { recursive: true, force: true })
    sb?.cleanup()
  })

  it('no credentials: the flag, the variable, login and --profile; exit 3', async () => {
    // A database without a profile that holds its key: nothing to send.
    const r = await sb.run(['whoami'], { env: { FINCTL_CONFIG_DIR: empty, FINCTL_DATABASE: sb.database } })
    expect(r.code, r.stderr).toBe(3)
    expect(r.stderr).toMatch(
      /^error: no credentials for .*: give --api-key KEY or set FINCTL_API_KEY, run `finctl login`, or choose a profile/m,
    )
    expect(r.stderr).toContain('--profile NAME')
    expect(r.stderr).not.toContain('X-API-Key')
    expect(r.stderr).not.toContain('Authorization')
  })

  it('a wrong password at login says so, without suggesting finctl login', async () => {
    const r = await sb.run(['login', '--email', 'o@cred.test', '--password-stdin', '--no-input'], { input: 'not-the-password\n' })
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('error: wrong email or password')
    expect(r.stderr).not.toContain('finctl login')
  })
})
