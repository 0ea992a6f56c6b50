/**
 * Webhooks end to end with `finctl serve` processes (the CLI's verbs in process): `finctl serve` killed with SIGKILL
 * in the middle of a delivery, then started again, delivers every event; two `finctl serve`
 * processes on one PostgreSQL database deliver each event to each endpoint once; without
 * --webhooks-allow-private, serve sends nothing to a receiver on loopback, in whatever notation.
 * The verbs on an embedded database (create, deliver, test, `events resend`, exit 14 when a
 * receiver refuses) run in process: test/commands/webhooks/.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'
import { freshPostgres, STORES } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)

interface Hook {
  url: string
  /** Event ids in the order they were answered 2xx. */
  ids: string[]
  /** Requests that arrived, answered or not. */
  arrivals: number
  hold: (n: number) => boolean
  status: (n: number) => number
  held: ServerResponse[]
  server: Server
}

async function hook(o: { hold?: (n: number) => boolean; status?: (n: number) => number } = {}): Promise<Hook> {
  const h: Hook = {
    url: '',
    ids: [],
    arrivals: 0,
    hold: o.hold ?? (() => false),
    status: o.status ?? (() => 200),
    held: [],
    server: undefined!,
  }
  h.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const n = ++h.arrivals
      if (h.hold(n)) return void h.held.push(res)
      const status = h.status(n)
      if (status < 300) h.ids.push((JSON.parse(body) as { id: string }).id)
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((r) => h.server.listen(0, '127.0.0.1', r))
  h.url = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}/hook`
  return h
}

const closeHook = (h: Hook) => {
  for (const res of h.held) res.destroy()
  h.server.closeAllConnections()
  return new Promise<void>((r) => h.server.close(() => r()))
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.each(STORES)('webhooks end to end on %s', (store) => {
  let sb: InProcessSandbox
  let database: string
  let drop: (() => Promise<void>) | undefined
  let acct: string
  const hooks: Hook[] = []
  const servers: ServeProcess[] = []
  const env = {
    FINCTL_WEBHOOK_BACKOFF_MS: '100',
    FINCTL_WEBHOOK_TIMEOUT_MS: '1000',
    FINCTL_WEBHOOK_LEASE_MS: '2000',
    FINCTL_WEBHOOK_POLL_MS: '250',
  }
  const tx = async (description: string) =>
    (
      await sb.json<{ id: string }>([
        'tx',
        'create',
        '--account',
        acct,
        '--date',
        today,
        '--amount',
        '-1.00',
        '--description',
        description,
        '--json',
      ])
    ).id
  const eventIds = async (type: string, after = 0) =>
    (await sb.json<Array<{ id: string }>>(['events', 'list', '--type', type, '--after', String(after), '--all', '--json'])).map((e) => e.id)
  const lastSeq = async () => {
    const all = await sb.json<Array<{ sequence: number }>>(['events', 'list', '--all', '--json'])
    return all.at(-1)?.sequence ?? 0
  }
  // The receivers are on loopback: serve refuses them unless told otherwise.
  const serve = async (flags = ['--webhooks-allow-private']) => {
    const s = await spawnServe(['--database', database, ...flags], { cwd: sb.dir, env: sb.env(env), stopTimeoutMs: 15_000 })
    servers.push(s)
    return s
  }

  beforeAll(async () => {
    sb = new InProcessSandbox(`webhooks-${store}`)
    database = sb.database
    if (store === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(
      [
        'init',
        '--company',
        'Hook Co',
        '--currency',
        'USD',
        '--email',
        'o@hooks.test',
        '--password-stdin',
        '--no-input',
        '--database',
        database,
      ],
      { input: 'password-for-hooks\n' },
    )
    acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
  })
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop('SIGKILL')
    for (const h of hooks) await closeHook(h)
    await drop?.()
    sb?.cleanup()
  })

  it('serve killed with SIGKILL mid-delivery, then started again, delivers every event', async () => {
    // The first request is held unanswered: serve is killed while it waits for the answer.
    const h = await hook({ hold: (n) => n === 1 })
    hooks.push(h)
    const from = await lastSeq()
    await sb.json(['webhooks', 'create', '--url', h.url, '--events', 'transaction.created', '--json'])
    for (let i = 0; i < 5; i++) await tx(`Killed ${i}`)
    const want = await eventIds('transaction.created', from)
    expect(want).toHaveLength(5)
    const first = await serve()
    await waitFor(() => h.arrivals >= 1, 20_000, 'the first delivery to arrive')
    await first.stop('SIGKILL')
    for (const res of h.held) res.destroy()
    await serve()
    await waitFor(() => new Set(h.ids).size >= 5, 30_000, 'every event after the restart')
    expect([...new Set(h.ids)]).toEqual(want)
  }, 180_000)

  it.runIf(store === 'sqlite')(
    'without --webhooks-allow-private, nothing reaches a receiver on loopback, [::ffff:127.0.0.1] neither',
    async () => {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop()
      const h = await hook()
      hooks.push(h)
      const port = new URL(h.url).port
      // Made on the embedded database, which allows loopback: serve refuses at the connection.
      const made: Array<{ id: string }> = []
      for (const url of [h.url, `http://[::ffff:127.0.0.1]:${port}/hook`, `http://localhost:${port}/hook`])
        made.push(await sb.json<{ id: string }>(['webhooks', 'create', '--url', url, '--events', 'transaction.created', '--json']))
      await tx('Refused')
      const s = await serve([])
      const refused = async () => {
        const got = await Promise.all(
          made.map((w) => sb.json<{ recent_attempts: Array<{ error: string | null }> }>(['webhooks', 'get', w.id, '--json'])),
        )
        return got.map((g) => g.recent_attempts[0]?.error ?? null)
      }
      let errors = await refused()
      for (let i = 0; i < 200 && errors.some((e) => e === null); i++) {
        await new Promise((r) => setTimeout(r, 100))
        errors = await refused()
      }
      expect(errors).toEqual([
        'refused: 127.0.0.1 is a loopback address',
        'refused: ::ffff:7f00:1 is a loopback address',
        expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/),
      ])
      expect(h.arrivals).toBe(0)
      await s.stop()
      for (const w of made) await sb.ok(['webhooks', 'delete', w.id, '--yes'])
    },
    120_000,
  )

  it.runIf(store === 'postgres')(
    'two serve processes deliver each event to each endpoint once',
    async () => {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop()
      const from = await lastSeq()
      const receivers = await Promise.all([hook(), hook(), hook()])
      hooks.push(...receivers)
      for (const r of receivers) await sb.json(['webhooks', 'create', '--url', r.url, '--events', 'transaction.created', '--json'])
      for (let i = 0; i < 20; i++) await tx(`Shared ${i}`)
      const want = await eventIds('transaction.created', from)
      await Promise.all([serve(), serve()])
      for (let i = 0; i < 10; i++) await tx(`Shared late ${i}`)
      const all = await eventIds('transaction.created', from)
      expect(all).toHaveLength(want.length + 10)
      await waitFor(() => receivers.every((r) => r.ids.length >= all.length), 60_000, 'every event at every endpoint')
      await new Promise((r) => setTimeout(r, 1000))
      for (const r of receivers) expect(r.ids).toEqual(all)
    },
    240_000,
  )
})
