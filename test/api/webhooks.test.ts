/**
 * Webhook endpoints and their delivery through both transports on both stores:
 * the secret shown once, link-local and metadata URLs refused in every notation, the `webhooks` scope;
 * a receiver on 127.0.0.1 gets every event of its types, in order, signed as docs/events.md says
 * (checked by the page's own snippet); a receiver failing three tries gets the event on the fourth;
 * resend and test. `finctl serve` refuses loopback and private addresses unless
 * FINCTL_WEBHOOK_ALLOW_PRIVATE=1, which the receivers here need.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, ROOT, STORES, type Harness, type Tenant } from '../helpers/harness.js'
import { startReceiver, until, type Receiver } from '../helpers/receiver.js'

// Retries within the test's time (read by the embedded core, and by `finctl serve` as it starts).
process.env.FINCTL_WEBHOOK_BACKOFF_MS = '100'
process.env.FINCTL_WEBHOOK_BACKOFF_MAX_MS = '200'

/** The verification snippet of docs/events.md, run as a reader would paste it. */
function docsVerifier(): (secret: string, header: string, body: string) => boolean {
  const page = readFileSync(join(ROOT, 'docs/events.md'), 'utf8')
  const m = /<!-- verify-snippet[^>]*-->\n```js\n([\s\S]*?)```/.exec(page)
  if (!m) throw new Error('docs/events.md has no verify-snippet block')
  const code = m[1].replace(/^import .*$/m, '')
  return new Function('createHmac', 'timingSafeEqual', `${code}\nreturn verifyFinctlSignature`)(createHmac, timingSafeEqual)
}

const today = new Date().toISOString().slice(0, 10)

describe.each(MATRIX)('webhooks over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  const receivers: Receiver[] = []
  const receiver = async (answer?: (n: number) => number) => {
    const r = await startReceiver(answer)
    receivers.push(r)
    return r
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind, { env: { FINCTL_WEBHOOK_ALLOW_PRIVATE: '1' } })
    a = await h.tenant()
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
  })
  afterAll(async () => {
    for (const r of receivers) await r.close()
    await h?.close()
  })

  it('the secret is shown once; list and get never show it; update and delete', async () => {
    const r = await receiver()
    const w = await owner.webhooks.create({ url: r.url, events: ['transaction.created'], description: 'erp' })
    expect(w.secret).toMatch(/^whsec_/)
    expect(w).toMatchObject({ url: r.url, events: ['transaction.created'], status: 'enabled', description: 'erp' })
    const listed = await owner.webhooks.list()
    expect(listed.map((x) => x.id)).toContain(w.id)
    expect(JSON.stringify(listed)).not.toContain(w.secret)
    expect(JSON.stringify(await owner.webhooks.get(w.id))).not.toContain(w.secret)
    const u = await owner.webhooks.update(w.id, { events: ['*'], status: 'disabled' })
    expect(u).toMatchObject({ events: ['*'], status: 'disabled', disabled_reason: 'disabled by hand' })
    expect(await owner.webhooks.delete(w.id)).toEqual({ id: w.id, deleted: true })
    await expect(owner.webhooks.get(w.id)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('link-local and metadata URLs are refused naming url; a key without the webhooks scope is 403', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://2852039166/',
      'http://[fe80::1]/x',
      'http://100.100.100.200/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::169.254.169.254]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[::ffff:100.100.100.200]/',
      'http://[::ffff:0:169.254.169.254]/',
      'http://[2002:a9fe:a9fe::]/',
    ]) {
      const e = await owner.webhooks.create({ url, events: ['*'] }).catch((x: unknown) => x)
      expect(e, url).toBeInstanceOf(AppError)
      expect((e as AppError).code).toBe('validation_error')
      expect((e as AppError).details?.[0].path).toBe('url')
    }
    const e = await owner.webhooks.create({ url: 'ftp://example.com/', events: ['*'] }).catch((x: unknown) => x)
    expect((e as AppError).details?.[0].path).toBe('url')
    await expect(c.webhooks.list()).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('a receiver on 127.0.0.1 gets its types in commit order, signed as docs/events.md verifies', async () => {
    const r = await receiver()
    const w = await owner.webhooks.create({ url: r.url, events: ['transaction.created', 'transaction.updated', 'transactions.imported'] })
    const t1 = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: 'One', amount: '-1.00' })
    await c.accounts.update(a.accountId, { institution_name: 'Other Bank' }) // not of its types
    const t2 = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: 'Two', amount: '-2.00' })
    await c.transactions.update(t1.id, { description: 'One, renamed' })
    await c.transactions.batch([{ bank_account_id: a.accountId, transaction_date: today, description: 'Three', amount: '-3.00' }])
    await until(
      () => r.received.length >= 4,
      () => owner.webhooks.deliver(),
    )
    const verify = docsVerifier()
    for (const got of r.received) {
      expect(verify(w.secret, String(got.headers['finctl-signature']), got.body)).toBe(true)
      expect(verify('whsec_wrong', String(got.headers['finctl-signature']), got.body)).toBe(false)
      expect(verify(w.secret, String(got.headers['finctl-signature']), got.body.replace('}', ' }'))).toBe(false)
      expect(got.headers['finctl-event-id']).toBe(got.event.id)
    }
    expect(r.received.map((x) => [x.event.type, x.event.object_id])).toEqual([
      ['transaction.created', t1.id],
      ['transaction.created', t2.id],
      ['transaction.updated', t1.id],
      ['transactions.imported', null],
    ])
    const seqs = r.received.map((x) => x.event.sequence)
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs)
    await new Promise((res) => setTimeout(res, 300))
    await owner.webhooks.deliver()
    expect(r.received).toHaveLength(4)
    await owner.webhooks.delete(w.id)
  })

  it('a receiver failing the first three tries gets the event on the fourth', async () => {
    const r = await receiver((n) => (n <= 3 ? 500 : 200))
    const w = await owner.webhooks.create({ url: r.url, events: ['transaction.created'] })
    const t = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: 'Retry', amount: '-9.00' })
    await until(
      () => r.received.length >= 1,
      () => owner.webhooks.deliver(),
    )
    expect(r.received.map((x) => x.event.object_id)).toEqual([t.id])
    // The receiver has the event before the service has its answer: wait for the service to record it.
    let d = await owner.webhooks.get(w.id)
    for (let i = 0; i < 100 && (d.recent_attempts.length < 4 || d.failed_attempts > 0); i++) {
      await new Promise((res) => setTimeout(res, 50))
      d = await owner.webhooks.get(w.id)
    }
    expect(d.recent_attempts.map((x) => [x.attempt, x.ok, x.status_code]).reverse()).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, false, 500],
      [4, true, 200],
    ])
    expect(d).toMatchObject({ status: 'enabled', failed_attempts: 0, failing_since: null })
    await owner.webhooks.delete(w.id)
  })

  it('test sends a signed webhook.test; resend sends an event again', async () => {
    const r = await receiver()
    const w = await owner.webhooks.create({ url: r.url, events: ['transaction.deleted'] })
    const sent = await owner.webhooks.test(w.id)
    expect(sent).toMatchObject({ endpoint_id: w.id, ok: true, status_code: 200 })
    expect(r.received[0].event.type).toBe('webhook.test')
    expect(docsVerifier()(w.secret, String(r.received[0].headers['finctl-signature']), r.received[0].body)).toBe(true)
    const t = await c.transactions.create({ bank_account_id: a.accountId, transaction_date: today, description: 'Gone', amount: '-1.00' })
    await c.transactions.delete(t.id)
    await until(
      () => r.received.length >= 2,
      () => owner.webhooks.deliver(),
    )
    const event = r.received[1].event
    const again = await owner.events.resend(event.id)
    expect(again).toEqual([expect.objectContaining({ endpoint_id: w.id, ok: true })])
    expect(r.received[2].event).toEqual(event)
    await owner.webhooks.delete(w.id)
  })
})

describe.each(STORES)('webhook addresses of finctl serve on %s, without FINCTL_WEBHOOK_ALLOW_PRIVATE', (storeKind) => {
  let h: Harness
  let owner: Client
  let receiver: Receiver

  beforeAll(async () => {
    h = await createHarness('http', storeKind)
    owner = h.client({ token: (await h.tenant()).token })
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await h?.close()
  })

  it('loopback and private addresses are refused naming url, in any notation, also by an update', async () => {
    const port = new URL(receiver.url).port
    for (const url of [
      receiver.url,
      `http://localhost:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://0.0.0.0:${port}/hook`,
      'http://10.0.0.1/',
      'http://[fd12::1]/',
      'http://100.64.0.1/',
      'http://[64:ff9b::192.168.0.1]/',
      `http://[::ffff:0:127.0.0.1]:${port}/hook`,
      `http://[2002:7f00:1::]:${port}/hook`,
      `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/hook`,
    ]) {
      const e = await owner.webhooks.create({ url, events: ['*'] }).catch((x: unknown) => x)
      expect(e, url).toBeInstanceOf(AppError)
      expect((e as AppError).details?.[0], url).toMatchObject({ path: 'url', message: expect.stringContaining('--webhooks-allow-private') })
    }
    // TEST-NET-1 (RFC 5737): public to the check, routed nowhere; the endpoint gets no event anyway.
    const w = await owner.webhooks.create({ url: 'https://192.0.2.10/hook', events: ['*'] })
    const e = await owner.webhooks.update(w.id, { url: receiver.url }).catch((x: unknown) => x)
    expect((e as AppError).details?.[0].path).toBe('url')
    await owner.webhooks.delete(w.id)
    expect(receiver.received).toEqual([])
  })
})
