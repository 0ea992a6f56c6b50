/**
 * Secrets: a database URL's password is in no output of the CLI nor in serve's log, and an API key
 * given with --api-key is not in the process list while the command runs; an input
 * file finctl may not read is a usage error naming it (exit 2). The JWT and password-hash checks
 * are in security.test.ts and test/api/passwords.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, cleanEnv, closedPort, spawnServe } from '../helpers/cli.js'
import { freshPostgres, STORES } from '../helpers/harness.js'

const SECRET = 'Sup3r-secret-pw'

describe.runIf(STORES.includes('postgres'))('a PostgreSQL URL with a password', () => {
  let sb: Sandbox
  let url: string
  let drop: () => Promise<void>

  beforeAll(async () => {
    sb = new Sandbox('secrets')
    const pg = await freshPostgres()
    drop = pg.drop
    const u = new URL(pg.url)
    u.password = SECRET
    url = u.toString()
  })

  afterAll(async () => {
    sb?.cleanup()
    await drop?.()
  })

  it('is never printed: init, whoami, profile list and show, doctor, an unreachable database, serve', async () => {
    const outputs: Array<{ what: string; text: string }> = []
    const run = async (args: string[], o: { input?: string; code?: number } = {}) => {
      const r = await sb.run(args, { input: o.input })
      expect(r.code, `${args.join(' ')}:\n${r.stderr}`).toBe(o.code ?? 0)
      outputs.push({ what: args.join(' '), text: r.stdout + r.stderr })
      return r
    }
    const init = await run(['init', '--database', url, '--email', 'owner@secrets.test', '--password-stdin', '--no-input'], {
      input: 'password-of-the-owner\n',
    })
    expect(init.stderr).toContain('postgres://postgres:***@127.0.0.1')
    await run(['whoami'])
    await run(['whoami', '--json'])
    await run(['profile', 'list'])
    await run(['profile', 'list', '--json'])
    await run(['profile', 'show', 'local', '--json'])
    await run(['doctor'])
    await run(['doctor', '--json'])
    // The same URL with a port nothing listens on: the error names the target, not the password.
    const closed = new URL(url)
    closed.port = String(await closedPort())
    const down = await sb.run(['accounts', 'list'], { env: { FINCTL_DATABASE: closed.toString() } })
    expect(down.code).toBe(10)
    expect(down.stderr).toContain('***')
    outputs.push({ what: 'unreachable database', text: down.stdout + down.stderr })
    const debug = await sb.run(['--debug', 'accounts', 'list'], { env: { FINCTL_DATABASE: closed.toString() } })
    outputs.push({ what: 'unreachable database, --debug', text: debug.stdout + debug.stderr })
    const served = await sb.run(['serve', '--port', '0', '--database', closed.toString()], { timeoutMs: 60_000 })
    expect(served.code).not.toBe(0)
    outputs.push({ what: 'serve on an unreachable database', text: served.stdout + served.stderr })
    // serve's own log while it runs, at debug level; and its command line in the process list.
    const server = await spawnServe(['--database', url, '--log-level', 'debug'], { cwd: sb.dir, env: sb.env(), stopTimeoutMs: 15_000 })
    if (process.platform === 'linux') {
      const listed = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      expect(listed).toContain('serve --port 0 --database postgres://postgres:***@127.0.0.1')
      outputs.push({ what: 'the process list', text: listed })
    }
    const stopped = await server.stop()
    expect(stopped.code, server.stderr()).toBe(0)
    outputs.push({ what: 'serve log', text: server.stderr() })
    for (const o of outputs) expect(o.text, o.what).not.toContain(SECRET)
  })
})

describe.runIf(process.platform === 'linux')('an API key given with --api-key', () => {
  it('is *** in the process list while the command runs', async () => {
    // A service that takes the connection and never answers: the command waits while its command line is read.
    const held: Socket[] = []
    const server = createServer((socket) => held.push(socket))
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res))
    const accepted = new Promise<void>((res) => server.once('connection', () => res()))
    const key = 'fk_live_process-list-secret'
    const dir = mkdtempSync(join(tmpdir(), 'finctl-argv-'))
    const env = cleanEnv({ HOME: dir, FINCTL_CONFIG_DIR: join(dir, 'config') })
    const { port } = server.address() as AddressInfo
    const child = spawn(process.execPath, [BIN, '--base-url', `http://127.0.0.1:${port}`, '--api-key', key, 'accounts', 'list'], {
      env,
      stdio: 'ignore',
    })
    try {
      await accepted
      const listed = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      expect(listed).toContain('--api-key *** accounts list')
      expect(listed).not.toContain(key)
    } finally {
      child.kill('SIGKILL')
      await new Promise((res) => child.once('exit', res))
      for (const socket of held) socket.destroy()
      await new Promise((res) => server.close(res))
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('an input file finctl may not read', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'finctl-unreadable-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is exit 2 naming the path (tx import, statements upload, rates import, seed), not an internal error', () => {
    const file = join(dir, 'bank.csv')
    writeFileSync(file, 'date,description,amount\n2026-01-02,Coffee,-3.50\n', { mode: 0o600 })
    chmodSync(file, 0)
    // Root reads any file: run finctl as root without the two capabilities that let it (setpriv, util-linux),
    // so that the run does not depend on "nobody" reaching node through the clone's folders.
    const asRoot = process.getuid?.() === 0
    const env = cleanEnv({ HOME: dir, FINCTL_CONFIG_DIR: join(dir, 'config') })
    const finctl = (args: string[]) => {
      const command = asRoot ? 'setpriv' : process.execPath
      const argv = [BIN, ...args]
      const r = spawnSync(command, asRoot ? ['--bounding-set=-dac_override,-dac_read_search', process.execPath, ...argv] : argv, {
        env,
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
      })
      if (r.error) throw new Error(`could not run ${command}: ${r.error.message}`)
      return r
    }
    for (const args of [
      ['tx', 'import', file, '--account', '00000000-0000-0000-0000-000000000000'],
      ['statements', 'upload', file, '--account', '00000000-0000-0000-0000-000000000000'],
      ['rates', 'import', file],
      ['seed', file],
    ]) {
      const r = finctl(args)
      expect(r.stderr, args.join(' ')).toContain(`cannot read ${file}: permission denied`)
      expect(r.stderr).not.toContain('internal error')
      expect(r.status, r.stderr).toBe(2)
    }
  })
})
