/**
 * End-to-end: `finctl logs tail` of the built CLI shows a request made from another
 * process within a second, on the embedded target and through `finctl serve`, on SQLite and
 * PostgreSQL; Ctrl-C is a clean exit 0. Its filters and its usage errors run in process:
 * test/commands/logs/.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, callApi, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'
import { STORES, freshPostgres } from '../helpers/harness.js'

interface Seen {
  line: string
  at: number
}

/** `finctl logs tail ...args` running in the background, its stdout lines timed as they come. */
class Tail {
  readonly seen: Seen[] = []
  stderr = ''
  private readonly child: ChildProcess
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>

  constructor(sb: Sandbox, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [BIN, 'logs', 'tail', ...args], {
      cwd: sb.dir,
      env: sb.env(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let partial = ''
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const parts = (partial + d).split('\n')
      partial = parts.pop() ?? ''
      for (const line of parts) this.seen.push({ line, at: Date.now() })
    })
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d))
    this.exited = new Promise((res) => this.child.once('exit', (code, signal) => res({ code, signal })))
  }

  /** Wait for the note on stderr that says it reads the log. */
  ready(): Promise<void> {
    return this.until(() => this.stderr.includes('tailing'), 15_000, 'the tailing note')
  }

  async until(test: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${what} within ${ms} ms:\n${this.stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  /** The first line that passes `test`, once it comes. */
  async line(test: (line: string) => boolean, ms = 10_000): Promise<Seen> {
    await this.until(() => this.seen.some((s) => test(s.line)), ms, 'such line')
    return this.seen.find((s) => test(s.line))!
  }

  /** Ctrl-C, then the exit. */
  async interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGINT')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }
}

const record = (s: Seen) => JSON.parse(s.line) as { path: string; status: number; method: string; created_at: string; key_prefix: string }

/** The time from a request (its record's created_at, taken as it was answered) to its line. */
const delay = (s: Seen) => s.at - Date.parse(record(s).created_at)

describe.each(STORES)('finctl logs tail on %s', (storeKind) => {
  const sb = new Sandbox(`logs-${storeKind}`)
  let database: string
  let drop: (() => Promise<void>) | undefined
  let server: ServeProcess | undefined
  let key: string
  const tails: Tail[] = []
  const tail = (args: string[], env: Record<string, string> = {}) => {
    const t = new Tail(sb, args, env)
    tails.push(t)
    return t
  }

  beforeAll(async () => {
    database = sb.database
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(storeKind === 'postgres' ? ['--database', database] : [])])
    key = sb.remember(sb.profiles().profiles.local.api_key)
  })
  afterAll(async () => {
    for (const t of tails) await t.interrupt().catch(() => {})
    await stopServeAndCleanup(server, sb)
    await drop?.()
  })

  it('embedded: shows a request made from another process within a second; Ctrl-C exits 0', async () => {
    const t = tail(['--json'])
    await t.ready()
    await sb.ok(['company'])
    const seen = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/company')
    expect(record(seen)).toMatchObject({ method: 'GET', status: 200, key_prefix: key.slice(0, 12) })
    expect(delay(seen)).toBeLessThan(1000)
    const { code, signal } = await t.interrupt()
    expect(signal).toBeNull()
    expect(code, t.stderr).toBe(0)
    expect(t.stderr).not.toMatch(/error/i)
    // Its own reads are not in the log.
    expect(t.seen.map((s) => record(s).path)).not.toContain('/api-v1/logs')
  })

  it('through finctl serve: shows requests answered by serve and by another embedded process within a second', async () => {
    server = await startServe(sb, database)
    const t = tail(['--json'], { FINCTL_BASE_URL: server.url, FINCTL_API_KEY: key })
    await t.ready()
    const viaServe = await callApi(server, key, 'GET', '/api-v1/bank-accounts/nope')
    expect(viaServe.status).toBe(404)
    const served = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/bank-accounts/nope')
    expect(record(served).status).toBe(404)
    expect(delay(served)).toBeLessThan(1000)
    await sb.ok(['categories'])
    const embedded = await t.line((l) => record({ line: l, at: 0 }).path === '/api-v1/categories')
    expect(delay(embedded)).toBeLessThan(1000)
    const { code } = await t.interrupt()
    expect(code, t.stderr).toBe(0)
  })
})
