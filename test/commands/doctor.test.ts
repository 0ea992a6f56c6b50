/**
 * `finctl doctor` in process (test/helpers/in-process-cli.ts; moved from test/e2e/doctor.test.ts,
 * which keeps the remote target through `finctl serve`): a fresh machine, a healthy embedded
 * set-up, loose permissions, a damaged database, wrong credentials, an unreachable target, and
 * clock skew against a service in this process whose Date header is five minutes ahead.
 */
import { chmodSync, closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, listenLocal } from '../helpers/cli.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'

interface Check {
  name: string
  status: 'ok' | 'warn' | 'fail' | 'skip'
  detail: string
}

describe('finctl doctor, in process', () => {
  let sb: InProcessSandbox
  let fake: { url: string; close: () => Promise<void> } | undefined
  let fakeUrl: string

  beforeAll(async () => {
    sb = new InProcessSandbox('doctor')
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
    sb?.cleanup()
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

  it('an unreachable target fails, and the credentials are not tried (exit 1)', async () => {
    const key = sb.profiles().profiles.local.api_key!
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

  it('on a terminal, marks instead of words; --output ndjson, one check a line', async () => {
    const tty = await sb.run(['doctor'], { tty: { stdout: true }, env: { NO_COLOR: '1' } })
    expect(tty.stdout).toMatch(/^✓ node +Node\.js /m)
    expect(tty.stdout).not.toMatch(/^(ok|FAIL) /m)
    const nd = await sb.run(['doctor', '--output', 'ndjson'])
    const lines = nd.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Check)
    expect(lines[0]).toMatchObject({ name: 'node', status: 'ok' })
    expect(lines.map((c) => c.name)).toContain('database')
  })

  it('is documented in its help with the exit code', async () => {
    const r = await sb.ok(['doctor', '--help'])
    expect(r.stdout).toContain('Exits 1 when a check fails')
  })
})
