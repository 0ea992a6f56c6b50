/**
 * `finctl listen` in process, running in the background (test/helpers/in-process-background.ts)
 * while other commands make changes, on SQLite and PostgreSQL: --print-json with --events prints
 * NDJSON and forwards nothing; without --forward-to a line per event; --forward-to with
 * FINCTL_LISTEN_SECRET signs each delivery with it, a line per delivery; a bad flag is exit 2
 * naming it. Moved from test/e2e/listen.test.ts, which keeps what a process shows: the events of
 * another process, through `finctl serve`, Ctrl-C exiting 0.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InBackground } from '../helpers/in-process-background.js'
import { STORES, freshPostgres } from '../helpers/harness.js'
import { InProcessSandbox } from '../helpers/in-process-cli.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'

/** The verification of docs/events.md ("finctl listen"): the signature of `t.body` with the secret, 5 minutes' tolerance. */
function verify(secret: string, header: string, body: string, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest()
  const given = Buffer.from(parts.v1 ?? '', 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(now / 1000 - Number(parts.t)) < 300
}

describe.each(STORES)('finctl listen, in process on %s', (storeKind) => {
  const sb = new InProcessSandbox(`listen-${storeKind}`)
  let drop: (() => Promise<void>) | undefined
  let receiver: Receiver
  let account: string
  const running: InBackground[] = []
  const listen = (args: string[], env: Record<string, string> = {}) => {
    const l = new InBackground(sb, ['listen', ...args], { env })
    running.push(l)
    return l
  }
  const ready = async (l: InBackground) => {
    await l.until(() => l.stderr.includes('Ready!'), 'Ready! line')
    return /(whsec_[A-Za-z0-9_-]+)/.exec(l.stderr)?.[1] ?? ''
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
    let database: string | undefined
    if (storeKind === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    await sb.ok(['init', '--no-input', '--currency', 'USD', ...(database ? ['--database', database] : [])])
    account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Ops', '--type', 'checking', '--json'])).id
    receiver = await startReceiver()
  })
  afterAll(async () => {
    for (const l of running) await l.interrupt().catch(() => {})
    await receiver?.close()
    await drop?.()
    sb.cleanup()
  })

  it('--print-json prints the events of --events as NDJSON, forwarding nothing', async () => {
    const l = listen(['--print-json', '--events', 'bank_account.created'])
    await ready(l)
    const from = receiver.received.length
    await txCreate('Not this one')
    await sb.ok(['accounts', 'create', '--name', 'Cards', '--type', 'credit_card'])
    await l.until(() => l.lines.length >= 1, 'an event')
    await new Promise((r) => setTimeout(r, 800))
    const events = l.lines.map((s) => JSON.parse(s))
    expect(events.map((e) => [e.type, e.data.name])).toEqual([['bank_account.created', 'Cards']])
    expect(receiver.received.length).toBe(from)
    expect(await l.interrupt(), l.stderr).toBe(0)
  })

  it('without --forward-to: a line per event, time, type, id and the object', async () => {
    const l = listen([])
    await ready(l)
    expect(l.stderr).toContain('Ready! Listening for the events of the embedded database (Ctrl-C to stop)')
    const a = await txCreate('Lunch')
    await l.until(() => l.lines.length >= 1, 'an event')
    expect(l.lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} transaction\\.created \\S+ ${a.id}$`))
    expect(await l.interrupt(), l.stderr).toBe(0)
  })

  it('--forward-to with FINCTL_LISTEN_SECRET: each delivery signed with it, a line per delivery with its status', async () => {
    const l = listen(['--forward-to', receiver.url], { FINCTL_LISTEN_SECRET: 'whsec_fixed_in_process' })
    expect(await ready(l)).toBe('whsec_fixed_in_process')
    expect(l.stderr).toContain(`Forwarding the events of the embedded database to ${receiver.url}`)
    const from = receiver.received.length
    const a = await txCreate('Taxi')
    await sb.ok(['accounts', 'create', '--name', 'Petty', '--type', 'cash'])
    await l.until(() => receiver.received.length >= from + 2, 'two deliveries')
    const got = receiver.received.slice(from)
    expect(got.map((r) => r.event.type)).toEqual(['transaction.created', 'bank_account.created'])
    expect(got[0].event.object_id).toBe(a.id)
    for (const r of got) expect(verify('whsec_fixed_in_process', String(r.headers['finctl-signature']), r.body), r.body).toBe(true)
    await l.until(() => l.lines.length >= 2, 'two lines')
    expect(l.lines[0]).toMatch(new RegExp(`transaction\\.created ${got[0].event.id} ${a.id} -> \\[200\\] POST ${receiver.url} \\d+ms$`))
    expect(await l.interrupt(), l.stderr).toBe(0)
  })

  it('a bad flag is exit 2 naming it', async () => {
    for (const [args, flag] of [
      [['--events', 'transaction.made'], '--events'],
      [['--forward-to', 'localhost:4242'], '--forward-to'],
    ] as const) {
      const r = await sb.run(['listen', ...args])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toContain(flag)
    }
  })
})
