/**
 * `finctl events list | get | resend` in process (test/helpers/in-process-cli.ts): the outbox in
 * sequence order as a table or --json, filtered by --type and --after, paged by --limit (with the
 * note of where to go on) or streamed by --all; an event's payload; a resend to a receiver on
 * 127.0.0.1 in this process, exit 14 when it refuses; usage errors (exit 2, the flag named) and an
 * event not found (exit 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InProcessSandbox } from '../../helpers/in-process-cli.js'
import { startReceiver, type Receiver } from '../../helpers/receiver.js'

interface Event {
  id: string
  sequence: number
  type: string
  object_id: string | null
  data: Record<string, unknown>
}

const MISSING = '01a00000-0000-7000-8000-000000000000'

describe('events, in process', () => {
  let sb: InProcessSandbox
  let h: Receiver
  let events: Event[]
  let hook: string

  beforeAll(async () => {
    sb = new InProcessSandbox('events')
    await sb.ok(['init', '--company', 'Event Co', '--currency', 'USD', '--no-input'])
    const acct = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    for (const description of ['One', 'Two'])
      await sb.ok(['tx', 'create', '--account', acct, '--date', '2026-11-02', '--amount', '-3.00', '--description', description])
    h = await startReceiver()
    hook = (await sb.json<{ id: string }>(['webhooks', 'create', '--url', h.url, '--events', 'transaction.created', '--json'])).id
    events = await sb.json<Event[]>(['events', 'list', '--all', '--json'])
  })
  afterAll(async () => {
    await h?.close()
    sb?.cleanup()
  })

  it('list: oldest first, --type filters, --after goes on from a sequence', async () => {
    expect(events.map((e) => e.type)).toEqual(['api_key.created', 'bank_account.created', 'transaction.created', 'transaction.created'])
    expect(events.map((e) => e.sequence)).toEqual([...events.map((e) => e.sequence)].sort((a, b) => a - b))
    const created = await sb.json<Event[]>(['events', 'list', '--type', 'transaction.created', '--json'])
    expect(created.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id))
    const after = await sb.json<Event[]>(['events', 'list', '--after', String(events[2].sequence), '--json'])
    expect(after.map((e) => e.id)).toEqual([events[3].id])
  })

  it('list: a table; --limit pages with a note of where to go on; --all streams every page', async () => {
    const table = await sb.ok(['events', 'list'])
    const [header, ...rows] = table.stdout.trimEnd().split('\n')
    expect(header.split('\t')).toEqual(['SEQUENCE', 'CREATED_AT', 'TYPE', 'OBJECT', 'ACTOR', 'ID'])
    expect(rows.map((r) => r.split('\t')[2])).toEqual(events.map((e) => e.type))
    const page = await sb.ok(['events', 'list', '--limit', '1'])
    expect(page.stdout.trimEnd().split('\n')).toHaveLength(2)
    const next = events[0].sequence
    expect(page.stderr).toContain(`more after sequence ${next}: add --after ${next} or --all`)
    const all = await sb.json<Event[]>(['events', 'list', '--limit', '1', '--all', '--json'])
    expect(all.map((e) => e.id)).toEqual(events.map((e) => e.id))
  })

  it('list: --limit and --after must be whole numbers in range (exit 2, the flag named)', async () => {
    for (const [flag, value] of [
      ['--limit', 'many'],
      ['--limit', '1001'],
      ['--after', '-1'],
    ]) {
      const r = await sb.run(['events', 'list', flag, value])
      expect(r.code, `${flag} ${value}`).toBe(2)
      expect(r.stderr).toContain(flag)
      expect(r.stdout).toBe('')
    }
  })

  it('get: one event with its payload, as a record or --json; not found is exit 5', async () => {
    const e = await sb.json<Event>(['events', 'get', events[2].id, '--json'])
    expect(e).toMatchObject({ id: events[2].id, type: 'transaction.created', sequence: events[2].sequence })
    expect(e.data).toMatchObject({ description: 'One' })
    const table = await sb.ok(['events', 'get', events[2].id])
    expect(table.stdout).toContain(`type\ttransaction.created`)
    const gone = await sb.run(['events', 'get', MISSING])
    expect(gone.code).toBe(5)
    expect(gone.stderr).toMatch(/^error: /)
    const none = await sb.run(['events', 'get'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("missing required argument 'id'")
  })

  it('resend: a line per endpoint (exit 0); a refusal is exit 14 naming the URL; not found is exit 5', async () => {
    const from = h.received.length
    const last = events[3].id
    const ok = await sb.ok(['events', 'resend', last, '--endpoint', hook])
    const [header, row] = ok.stdout.trimEnd().split('\n')
    expect(header.split('\t')).toEqual(['ENDPOINT', 'URL', 'OK', 'STATUS', 'ERROR', 'MS'])
    expect(row.split('\t').slice(0, 4)).toEqual([hook, h.url, 'yes', '200'])
    expect(h.received.slice(from).map((r) => r.event.id)).toEqual([last])
    h.answer = () => 500
    try {
      const refused = await sb.run(['events', 'resend', last, '--json'])
      expect(refused.code).toBe(14)
      expect(JSON.parse(refused.stdout)).toMatchObject([{ endpoint_id: hook, ok: false, status_code: 500 }])
      expect(refused.stderr).toContain(`${h.url} did not take event ${last}: HTTP 500`)
    } finally {
      h.answer = () => 200
    }
    const gone = await sb.run(['events', 'resend', MISSING])
    expect(gone.code).toBe(5)
  })
})
