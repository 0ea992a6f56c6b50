/**
 * End-to-end: `finctl doctor` through the built CLI: a fresh machine, a healthy embedded set-up,
 * loose permissions, a damaged database, a remote target (real and unreachable), wrong credentials,
 * and clock skew against a service whose Date header is five minutes ahead.
 */
import { chmodSync, closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox, closedPort, listenLocal, startServe, type ServeProcess } from '../helpers/cli.js'

interface Check {
  name: string
  status: 'ok' | 'warn' | 'fail' | 'skip'
  detail: string
}

describe('finctl doctor', () => {
  let sb: Sandbox
  let server: ServeProcess | undefined
  let fake: { url: string; close: () => Promise<void> } | undefined
  let fakeUrl: string

  beforeAll(async () => {
    sb = new Sandbox('doctor')
    // A service whose clock is 5 minutes ahead; it accepts any key.
    fake = await listenLocal((req, res) => {
      const date = new Date(Date.now() + 5 * 60_000).toUTCString()
      const body =
        req.url === '/healthz'
          ? { success: true, data: { status: 'ok', version: '9.9.9', store: 'sqlite' } }
          : { success: true, data: { id: 'c1', name: 'Skewed Co', base_currency: 'USD', created_at: '2026-01-01T00:00:00Z' } }
      res.writeHead(200, { 'content-type': 'application/json', date })
      res.end(JSON.stringify(body))
    })
    fakeUrl = fake.url
  })

  afterAll(async () => {
    await fake?.close()
    try {
      if (server) expect((await server.stop()).code, server.stderr()).toBe(0)
    } finally {
      sb?.cleanup()
    }
  })

  async function doctor(
    args: string[] = [],
    env?: Record<string, string | undefined>,
  ): Promise<{ code: number | null; checks: Check[]; ok: boolean }> {
    const r = await sb.run([...args, 'doctor', '--json'], { env })
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] }
    return { code: r.code, ...out }
  }
  const status = (checks: Check[], name: string) => checks.find((c) => c.name === name)?.status

  it('on a fresh machine: fails on the missing profile and database, creates nothing (exit 1)', async () => {
    const r = await sb.run(['doctor'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^ok {3}node +Node\.js \d+\.\d+\.\d+ \(.+node[^)]*\)$/m)
    expect(r.stdout).toMatch(/^FAIL profile +no profile "local": run `finctl init`/m)
    expect(r.stdout).toMatch(/^FAIL database +no database at .*finctl\.db: run `finctl init`/m)
    expect(r.stdout).toMatch(/^skip reachable/m)
    expect(existsSync(sb.database)).toBe(false)
  })

  it('after init: every check passes (exit 0), as a checklist and as --json data', async () => {
    await sb.ok(['init', '--company', 'Doctor Co', '--password-stdin', '--no-input'], { input: 'password-for-doctor\n' })
    const r = await sb.run(['doctor'])
    expect(r.code, r.stdout).toBe(0)
    expect(r.stdout).not.toMatch(/^(FAIL|warn)/m)
    const { code, ok, checks } = await doctor()
    expect(code).toBe(0)
    expect(ok).toBe(true)
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['node', 'ok'],
      ['config folder', 'ok'],
      ['profiles file', 'ok'],
      ['profile', 'ok'],
      ['database', 'ok'],
      ['reachable', 'ok'],
      ['credentials', 'ok'],
    ])
    expect(checks.find((c) => c.name === 'credentials')?.detail).toContain('Doctor Co')
    expect(checks.find((c) => c.name === 'database')?.detail).toContain('integrity check ok')
  })

  it('a profiles file others can read, or a config folder others can enter, fails', async () => {
    chmodSync(sb.profilesPath, 0o644)
    const file = await doctor()
    expect(file.code).toBe(1)
    expect(status(file.checks, 'profiles file')).toBe('fail')
    expect(file.checks.find((c) => c.name === 'profiles file')?.detail).toContain('chmod 600')
    chmodSync(sb.profilesPath, 0o600)

    chmodSync(sb.configDir, 0o755)
    const dir = await doctor()
    expect(dir.code).toBe(1)
    expect(status(dir.checks, 'config folder')).toBe('fail')
    // Any command, doctor included, puts the folder back to 0700 when it opens the profiles.
    expect(statSync(sb.configDir).mode & 0o777).toBe(0o700)
  })

  it('wrong credentials fail the credentials check (exit 1)', async () => {
    const { code, checks } = await doctor([], { FINCTL_API_KEY: `fds_${'0'.repeat(43)}` })
    expect(code).toBe(1)
    expect(status(checks, 'reachable')).toBe('ok')
    expect(status(checks, 'credentials')).toBe('fail')
  })

  it('a remote target: reachable, credentials accepted, clock in step; unreachable fails (exit 1)', async () => {
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

    const port = await closedPort()
    const down = await doctor(['--base-url', `http://127.0.0.1:${port}`], { FINCTL_API_KEY: key })
    expect(down.code).toBe(1)
    expect(status(down.checks, 'reachable')).toBe('fail')
    expect(down.checks.find((c) => c.name === 'reachable')?.detail).toContain('cannot reach')
    expect(status(down.checks, 'credentials')).toBe('skip')
  })

  it('a service clock 5 minutes off is a warning, not a failure (exit 0)', async () => {
    const { code, checks } = await doctor(['--base-url', fakeUrl], { FINCTL_API_KEY: 'fds_any' })
    expect(code).toBe(0)
    const clock = checks.find((c) => c.name === 'clock')
    expect(clock?.status).toBe('warn')
    expect(clock?.detail).toMatch(/^this machine's clock is (29[89]|30[0-2]) s behind the service/)
    const text = await sb.run(['--base-url', fakeUrl, 'doctor'], { env: { FINCTL_API_KEY: 'fds_any' } })
    expect(text.stdout).toMatch(/^warn clock/m)
  })

  it('a damaged database fails the integrity check (exit 1)', async () => {
    await sb.ok(['accounts', 'create', '--name', 'Filler', '--type', 'cash', '--currency', 'USD'])
    const size = statSync(sb.database).size
    expect(size).toBeGreaterThan(8192)
    // Overwrite everything after the first page (the header stays, so the file still opens).
    const fd = openSync(sb.database, 'r+')
    writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096)
    closeSync(fd)
    const r = await sb.run(['doctor'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^FAIL database +.*finctl\.db: /m)
    expect(r.stdout).not.toContain('integrity check ok')
  })

  it('is documented in its help with the exit code', async () => {
    const r = await sb.ok(['doctor', '--help'])
    expect(r.stdout).toContain('Exits 1 when a check fails')
  })
})
