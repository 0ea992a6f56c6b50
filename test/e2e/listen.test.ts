/**
 * End-to-end: `finctl listen` of the built CLI forwards the events of changes made by
 * other processes to a receiver on 127.0.0.1, signed with the session's secret, in order, one line
 * per delivery with its status; from the embedded database and through `finctl serve`, on SQLite
 * and PostgreSQL; Ctrl-C exits 0. --print-json, --events, its lines and its usage errors run in
 * process: test/commands/listen.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, Sandbox, callApi, startServe, stopServeAndCleanup, type ServeProcess } from '../helpers/cli.js'
import { STORES, freshPostgres } from '../helpers/harness.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'

/** The verification of docs/events.md ("finctl listen"): the signature of `t.body` with the secret, 5 minutes' tolerance. */
function verify(secret: string, header: string, body: string, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest()
  const given = Buffer.from(parts.v1 ?? '', 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(now / 1000 - Number(parts.t)) < 300
}

class Listen {
  out = ''
  err = ''
  private readonly child: ChildProcess
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>

  constructor(sb: Sandbox, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [BIN, 'listen', ...args], { cwd: sb.dir, env: sb.env(env), stdio: ['ignore', 'pipe', 'pipe'] })
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.out += d))
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.err += d))
    this.exited = new Promise((res) => this.child.once('exit', (code, signal) => res({ code, signal })))
  }

  get lines(): string[] {
    return this.out.split('\n').filter(Boolean)
  }

  async until(test: () => boolean, what: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no ${what} within ${ms} ms:\n${this.err}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  /** The session's secret, once it is ready. */
  async ready(): Promise<string> {
    await this.until(() => this.err.includes('Ready!'), 'Ready! line')
    return /(whsec_[A-Za-z0-9_-]+)/.exec(this.err)?.[1] ?? ''
  }

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

describe.each(STORES)('finctl listen on %s', (storeKind) => {
  const sb = new Sandbox(`listen-${storeKind}`)
  let database: string
  let drop: (() => Promise<void>) | undefined
  let server: ServeProcess | undefined
  let receiver: Receiver
  let key: string
  let account: string
  const running: Listen[] = []
  const listen = (args: string[], env: Record<string, string> = {}) => {
    const l = new Listen(sb, args, env)
    running.push(l)
    return l
  }
  const txCreate = (description: string) =>
    sb.json<{ id: string }>([
      'tx',
      'create',
      '--account',
      account,
      '--date',
      '2026-11-02',
      '--description',
      description,
      '--amount',
      '-12.50',
      '--json',
    ])

  beforeAll(async () => {
    database = sb.database
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(storeKind === 'postgres' ? ['--database', database] : [])])
    key = sb.remember(sb.profiles().profiles.local.api_key)
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Ops', '--type', 'checking', '--json'])).id
    receiver = await startReceiver()
  })
  afterAll(async () => {
    for (const l of running) await l.interrupt().catch(() => {})
    await receiver?.close()
    await stopServeAndCleanup(server, sb)
    await drop?.()
  })

  it('embedded: forwards the events of another process, signed, in order, a line per delivery; Ctrl-C exits 0', async () => {
    const l = listen(['--forward-to', receiver.url])
    const secret = await l.ready()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const from = receiver.received.length
    const a = await txCreate('Coffee')
    await sb.ok(['tx', 'update', a.id, '--category', 'Meals'])
    await sb.ok(['accounts', 'create', '--name', 'Savings', '--type', 'savings'])
    await l.until(() => receiver.received.length >= from + 3, 'three deliveries')
    const got = receiver.received.slice(from)
    expect(got.map((r) => r.event.type)).toEqual(['transaction.created', 'transaction.updated', 'bank_account.created'])
    expect(got[0].event.object_id).toBe(a.id)
    const seqs = got.map((r) => r.event.sequence)
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs)
    for (const r of got) {
      expect(verify(secret, String(r.headers['finctl-signature']), r.body), r.body).toBe(true)
      expect(verify('whsec_other', String(r.headers['finctl-signature']), r.body)).toBe(false)
    }
    await l.until(() => l.lines.length >= 3, 'three lines')
    expect(l.lines[0]).toMatch(new RegExp(`transaction\\.created ${got[0].event.id} ${a.id} -> \\[200\\] POST ${receiver.url} \\d+ms$`))
    const { code, signal } = await l.interrupt()
    expect(signal).toBeNull()
    expect(code, l.err).toBe(0)
  })

  it('through finctl serve: forwards events of changes made through serve and by another process; a failed delivery says its status', async () => {
    server = await startServe(sb, database)
    const l = listen(['--forward-to', receiver.url, '--json'], {
      FINCTL_BASE_URL: server.url,
      FINCTL_API_KEY: key,
      FINCTL_LISTEN_SECRET: 'whsec_fixed_for_this_test',
    })
    expect(await l.ready()).toBe('whsec_fixed_for_this_test')
    const from = receiver.received.length
    const viaServe = await callApi(server, key, 'POST', '/api-v1/transactions', {
      bank_account_id: account,
      transaction_date: '2026-11-03',
      description: 'Train',
      amount: -30,
    })
    expect(viaServe.status).toBe(201)
    await txCreate('Lunch')
    await l.until(() => receiver.received.length >= from + 2, 'two deliveries')
    const got = receiver.received.slice(from)
    expect(got.map((r) => r.event.object_id)[0]).toBe(viaServe.body.data.id)
    for (const r of got) expect(verify('whsec_fixed_for_this_test', String(r.headers['finctl-signature']), r.body)).toBe(true)
    // The receiver fails: the delivery's line says 500.
    receiver.answer = () => 500
    try {
      await txCreate('Refused')
      await l.until(() => l.lines.length >= 3, 'three lines')
    } finally {
      receiver.answer = () => 200
    }
    const lines = l.lines.map((s) => JSON.parse(s))
    expect(lines.map((d) => [d.type, d.status_code, d.ok])).toEqual([
      ['transaction.created', 200, true],
      ['transaction.created', 200, true],
      ['transaction.created', 500, false],
    ])
    expect((await l.interrupt()).code, l.err).toBe(0)
  })
})
