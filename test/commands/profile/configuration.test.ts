/**
 * In process (moved from test/e2e/configuration.test.ts): errors in the configuration name the
 * configuration. A profile named by --profile or FINCTL_PROFILE that does not exist, or a base URL
 * that is no http(s) URL, is a usage error (exit 2) that says which setting is wrong and what to
 * give, and nothing is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'

describe('configuration errors, in process', () => {
  const sb = new InProcessSandbox('configuration')
  beforeAll(async () => {
    await sb.ok(['init', '--no-input'])
    await sb.ok(['profile', 'add', 'staging', '--base-url', 'http://127.0.0.1:9'])
  })
  afterAll(() => sb.cleanup())

  it('a profile that does not exist, by flag or variable: exit 2, the profiles listed', async () => {
    for (const [args, env, from] of [
      [['--profile', 'nosuch', 'whoami'], {}, '--profile'],
      [['tx', 'list'], { FINCTL_PROFILE: 'nosuch' }, 'FINCTL_PROFILE'],
    ] as const) {
      const r = await sb.run([...args], { env })
      expect(r.code, r.stderr).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`error: profile "nosuch" (${from}) does not exist: the profiles are local, staging (finctl profile list)\n`)
    }
  })

  it('a base URL that is no http(s) URL, by flag or variable: exit 2, naming where it came from', async () => {
    for (const [args, env, from, url] of [
      [['--base-url', 'notaurl', 'tx', 'list'], {}, '--base-url', 'notaurl'],
      [['keys', 'show'], { FINCTL_BASE_URL: 'ftp://host' }, 'FINCTL_BASE_URL', 'ftp://host'],
    ] as const) {
      const r = await sb.run([...args], { env })
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toContain(`error: ${from} "${url}" is not an http(s) URL`)
      expect(r.stderr).not.toMatch(/internal error|Invalid URL/)
    }
  })

  it('an existing profile, or an unknown one with a base URL to go to, still works as before', async () => {
    expect((await sb.ok(['--profile', 'local', 'whoami', '--json'])).stdout).toContain('"profile": "local"')
    // a new profile name with a target: nothing to look up (the request then fails to connect: exit 10)
    const r = await sb.run(['--profile', 'fresh', '--base-url', 'http://127.0.0.1:9', 'whoami'])
    expect(r.code, r.stderr).toBe(10)
  })
})
