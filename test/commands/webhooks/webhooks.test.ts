/**
 * `finctl webhooks create | list | get | update | delete | test | deliver` in process
 * (test/helpers/in-process-cli.ts) on SQLite and PostgreSQL, against a receiver on 127.0.0.1 in
 * this process: each verb's table and --json, its usage errors (exit 2, the flag named), an
 * endpoint not found (exit 5), a refused URL (exit 6), a receiver that refuses (exit 14). The
 * embedded round of create, deliver, test and `events resend` moved here from
 * test/e2e/webhooks.test.ts, which keeps what needs `finctl serve` (killed mid-delivery, two of
 * them on one database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORES, freshPostgres } from '../../helpers/harness.js'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { startReceiver, type Receiver } from '../../helpers/receiver.js'

const today = new Date().toISOString().slice(0, 10)

interface Endpoint {
  id: string
  url: string
  events: string[]
  status: string
  failed_attempts: number
  description: string | null
}

/** A sandbox with a company (on `database` when given) and a bank account; its account id. */
async function company(sb: InProcessSandbox, database?: string): Promise<string> {
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
      ...(database ? ['--database', database] : []),
    ],
    { input: 'password-for-hooks\n' },
  )
  return (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
}

const txCreate = async (sb: InProcessSandbox, acct: string, description: string) =>
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

describe.each(STORES)('webhooks, in process on %s', (store) => {
  let sb: InProcessSandbox
  let drop: (() => Promise<void>) | undefined
  let acct: string
  let h: Receiver
  let hook: Endpoint

  beforeAll(async () => {
    sb = new InProcessSandbox(`webhooks-${store}`)
    let database: string | undefined
    if (store === 'postgres') {
      const pg = await freshPostgres()
      database = pg.url
      drop = pg.drop
    }
    acct = await company(sb, database)
    h = await startReceiver()
  })
  afterAll(async () => {
    await h?.close()
    await drop?.()
    sb?.cleanup()
  })

  const eventIds = async (type: string) =>
    (await sb.json<Array<{ id: string }>>(['events', 'list', '--type', type, '--after', '0', '--all', '--json'])).map((e) => e.id)

  // Moved from test/e2e/webhooks.test.ts; it deletes its endpoint at the end, so the verbs below start with none.
  it('create shows the secret once, deliver sends in order, test and resend exit 14 on a refusal', async () => {
    const w = await sb.json<{ id: string; secret: string }>([
      'webhooks',
      'create',
      '--url',
      h.url,
      '--events',
      'transaction.created',
      '--json',
    ])
    expect(w.secret).toMatch(/^whsec_/)
    expect((await sb.ok(['webhooks', 'list'])).stdout).not.toContain(w.secret)
    const ids = [await txCreate(sb, acct, 'One'), await txCreate(sb, acct, 'Two')]
    expect(await sb.json(['webhooks', 'deliver', '--json'])).toMatchObject({ delivered: 2, failed: 0 })
    const events = await eventIds('transaction.created')
    expect(h.received.map((r) => r.event.id)).toEqual(events.slice(-2))
    expect(ids).toHaveLength(2)
    expect((await sb.run(['webhooks', 'test', w.id])).code).toBe(0)
    h.answer = () => 500
    const t = await sb.run(['webhooks', 'test', w.id])
    expect(t.code, t.stderr).toBe(14)
    expect(t.stderr).toContain('did not take the test event: HTTP 500')
    const r = await sb.run(['events', 'resend', events.at(-1)!])
    expect(r.code).toBe(14)
    h.answer = () => 200
    expect((await sb.run(['events', 'resend', events.at(-1)!])).code).toBe(0)
    const refused = await sb.run(['webhooks', 'create', '--url', 'http://169.254.169.254/latest', '--events', '*'])
    expect(refused.code).toBe(6)
    expect(refused.stderr).toContain('--url')
    expect((await sb.run(['webhooks', 'delete', w.id, '--yes'])).code).toBe(0)
  })

  it('list: none yet (the header and a note on a terminal, [] as --json)', async () => {
    expect(await sb.json(['webhooks', 'list', '--json'])).toEqual([])
    const r = await sb.ok(['webhooks', 'list'], { tty: { stderr: true } })
    expect(r.stdout).toBe('ID\tURL\tEVENTS\tSTATUS\tFAILED TRIES\n')
    expect(r.stderr).toContain('no webhook endpoints: create one with `finctl webhooks create`')
  })

  it('create: a table with the events joined and the secret on a line of its own; the warning on stderr', async () => {
    const r = await sb.ok([
      'webhooks',
      'create',
      '--url',
      h.url,
      '--events',
      'transaction.created, bank_account.created',
      '--description',
      'ERP',
    ])
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toContain(`url\t${h.url}`)
    expect(lines).toContain('events\ttransaction.created,bank_account.created')
    expect(lines).toContain('description\tERP')
    expect(lines.at(-1)).toMatch(/^whsec_\S+$/)
    expect(r.stderr).toContain('warning: this is the only time the signing secret is shown')
    hook = (await sb.json<Endpoint[]>(['webhooks', 'list', '--json']))[0]
    expect(hook).toMatchObject({ url: h.url, events: ['transaction.created', 'bank_account.created'], status: 'enabled' })
    expect(hook).not.toHaveProperty('secret')
  })

  it('create: usage errors name the flag (exit 2)', async () => {
    const noUrl = await sb.run(['webhooks', 'create', '--events', '*'])
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain("required option '--url <url>' not specified")
    const noEvents = await sb.run(['webhooks', 'create', '--url', h.url, '--events', ' , '])
    expect(noEvents.code).toBe(2)
    expect(noEvents.stderr).toContain('--events needs at least one event type, or *')
    expect(await sb.json(['webhooks', 'list', '--json'])).toHaveLength(1)
  })

  it('list: a table of id, url, events, status and failed tries', async () => {
    const r = await sb.ok(['webhooks', 'list'])
    const [header, row] = r.stdout.trimEnd().split('\n')
    expect(header.split('\t')).toEqual(['ID', 'URL', 'EVENTS', 'STATUS', 'FAILED TRIES'])
    expect(row.split('\t')).toEqual([hook.id, h.url, 'transaction.created,bank_account.created', 'enabled', '0'])
  })

  it('deliver and get: the tries of an endpoint, as notes under its record or in --json', async () => {
    await txCreate(sb, acct, 'Delivered')
    const d = await sb.ok(['webhooks', 'deliver'])
    expect(d.stdout).toContain('delivered\t1')
    expect(d.stderr).toContain('delivered 1 event, 0 failed (retried later)')
    // A unique end of the id names the endpoint, as a terminal's table shows it.
    const g = await sb.ok(['webhooks', 'get', hook.id.slice(-8)])
    expect(g.stdout).toContain(`id\t${hook.id}`)
    expect(g.stdout).toContain('events\ttransaction.created,bank_account.created')
    expect(g.stderr).toMatch(/event \S+ {2}try 1: ok 200 \(\d+ ms\)/)
    const json = await sb.json<{ id: string; recent_attempts: Array<{ ok: boolean; status_code: number }> }>([
      'webhooks',
      'get',
      hook.id,
      '--json',
    ])
    expect(json.id).toBe(hook.id)
    expect(json.recent_attempts.map((t) => [t.ok, t.status_code])).toEqual([[true, 200]])
  })

  it('update: --disable, --events, --enable; both, or nothing to change, is exit 2 naming the flags', async () => {
    const off = await sb.json<Endpoint>(['webhooks', 'update', hook.id, '--disable', '--events', '*', '--json'])
    expect(off).toMatchObject({ status: 'disabled', events: ['*'] })
    const on = await sb.ok(['webhooks', 'update', hook.id, '--enable', '--description', 'Books'])
    expect(on.stdout).toContain('status\tenabled')
    expect(on.stdout).toContain('description\tBooks')
    const both = await sb.run(['webhooks', 'update', hook.id, '--enable', '--disable'])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('give --enable or --disable, not both')
    const nothing = await sb.run(['webhooks', 'update', hook.id])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('nothing to change: give --url, --events, --description, --enable or --disable')
  })

  it('test: a record of the try (exit 0), or exit 14 with what the receiver said', async () => {
    expect(await sb.json(['webhooks', 'test', hook.id, '--json'])).toMatchObject({ ok: true, status_code: 200 })
    h.answer = () => 503
    try {
      const r = await sb.run(['webhooks', 'test', hook.id, '--json'])
      expect(r.code).toBe(14)
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, status_code: 503 })
      expect(r.stderr).toContain(`${h.url} did not take the test event: HTTP 503`)
    } finally {
      h.answer = () => 200
    }
  })

  it('delete: without --yes and a terminal, exit 2 naming --yes; with it, gone; then not found (exit 5)', async () => {
    const unasked = await sb.run(['webhooks', 'delete', hook.id])
    expect(unasked.code).toBe(2)
    expect(unasked.stderr).toContain('--yes')
    const r = await sb.ok(['webhooks', 'delete', hook.id.slice(0, 8), '--yes'])
    expect(r.stderr).toContain(`deleted webhook endpoint ${h.url} (${hook.id})`)
    expect(await sb.json(['webhooks', 'list', '--json'])).toEqual([])
    for (const args of [
      ['get', hook.id],
      ['update', hook.id, '--disable'],
      ['test', hook.id],
      ['delete', hook.id, '--yes'],
    ]) {
      const gone = await sb.run(['webhooks', ...args])
      expect(gone.code, args.join(' ')).toBe(5)
      expect(gone.stderr).toMatch(/^error: /)
    }
  })

  it('an id of fewer than 6 digits is exit 2; one of no endpoint is not found (exit 5)', async () => {
    const short = await sb.run(['webhooks', 'get', 'abc'])
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('6')
    const none = await sb.run(['webhooks', 'test', 'ffffffffff'])
    expect(none.code).toBe(5)
    expect(none.stderr).toContain('webhook endpoint ffffffffff not found')
  })

  it('a verb without its id is exit 2 naming the argument', async () => {
    const r = await sb.run(['webhooks', 'get'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("missing required argument 'id'")
  })
})
