/**
 * End-to-end: `finctl doctor` through the built CLI against a remote target, `finctl serve`:
 * reachable, credentials accepted, clock in step; once serve is stopped, unreachable (exit 1). A
 * fresh machine, the embedded set-up, loose permissions, a damaged database, wrong credentials, a
 * closed port and clock skew run in process: test/commands/doctor.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, startServe, type ServeProcess } from '../helpers/cli.js'

interface Check {
  name: string
  status: 'ok' | 'warn' | 'fail' | 'skip'
  detail: string
}

describe('finctl doctor against finctl serve', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined

  beforeAll(async () => {
    sb = new Sandbox('doctor')
    await sb.ok(['init', '--company', 'Doctor Co', '--password-stdin', '--no-input'], { input: 'password-for-doctor\n' })
  })

  afterAll(async () => {
    try {
      if (server) expect((await server.stop()).code, server.stderr()).toBe(0)
    } finally {
      sb?.cleanup()
    }
  })

  async function doctor(args: string[] = []): Promise<{ code: number | null; checks: Check[]; ok: boolean }> {
    const r = await sb.run([...args, 'doctor', '--json'])
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] }
    return { code: r.code, ...out }
  }
  const status = (checks: Check[], name: string) => checks.find((c) => c.name === name)?.status

  it('a remote target: reachable, credentials accepted, clock in step; stopped, unreachable (exit 1)', async () => {
    server = await startServe(sb, sb.database)
    const key = sb.profiles().profiles.local.api_key!
    await sb.ok(['profile', 'add', 'remote', '--base-url', server.url, '--api-key-stdin'], { input: `${key}\n` })
    const remote = await doctor(['--profile', 'remote'])
    expect(remote.code).toBe(0)
    expect(remote.checks.map((c) => [c.name, c.status])).toEqual([
      ['node', 'ok'],
      ['config folder', 'ok'],
      ['profiles file', 'ok'],
      ['profile', 'ok'],
      ['reachable', 'ok'],
      ['credentials', 'ok'],
      ['clock', 'ok'],
    ])

    const stopped = await server.stop()
    server = undefined
    expect(stopped.code).toBe(0)
    const gone = await doctor(['--profile', 'remote'])
    expect(gone.code).toBe(1)
    expect(status(gone.checks, 'reachable')).toBe('fail')
  })
})
