/**
 * One delivery (src/domain/webhooks/send.ts) against receivers on 127.0.0.1: a 2xx is success and
 * its signature verifies; a redirect is not followed (an answer that is not a 2xx); no answer in
 * FINCTL_WEBHOOK_TIMEOUT_MS and a refused connection are failures named in a few words.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendEvent, signature } from '../../src/domain/webhooks/send.js'

let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_q, res) => res.end()
const server = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8').on('data', (d: string) => (body += d))
  req.on('end', () => answer(req, res, body))
})
let base = ''
const event = { id: 'evt_1', type: 'transaction.created' }
const now = new Date('2026-11-26T00:00:00Z')

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

describe('sendEvent', () => {
  it('a 2xx is success; the body arrives signed as docs/events.md verifies it', async () => {
    let seen: { headers: IncomingMessage['headers']; body: string } | undefined
    answer = (req, res, body) => {
      seen = { headers: req.headers, body }
      res.writeHead(204).end()
    }
    const r = await sendEvent(`${base}/hook`, 'whsec_test', event, now, '{"a":1}')
    expect(r).toMatchObject({ ok: true, status_code: 204, error: null })
    expect(seen?.body).toBe('{"a":1}')
    const t = Math.floor(now.getTime() / 1000)
    expect(seen?.headers['finctl-signature']).toBe(`t=${t},v1=${signature('whsec_test', t, '{"a":1}')}`)
    expect(seen?.headers['finctl-event-id']).toBe('evt_1')
  })

  it('a redirect is not followed: the 3xx is the answer, a failure', async () => {
    let hits = 0
    answer = (_q, res) => {
      hits++
      res.writeHead(302, { location: `${base}/elsewhere` }).end()
    }
    expect(await sendEvent(`${base}/hook`, 's', event, now)).toMatchObject({ ok: false, status_code: 302, error: 'HTTP 302' })
    expect(hits).toBe(1)
  })

  it('no answer in time, and a refused connection, are failures in a few words', async () => {
    answer = () => {}
    const saved = process.env.FINCTL_WEBHOOK_TIMEOUT_MS
    process.env.FINCTL_WEBHOOK_TIMEOUT_MS = '200'
    try {
      expect(await sendEvent(`${base}/slow`, 's', event, now)).toMatchObject({ ok: false, status_code: null, error: 'no answer in 200 ms' })
    } finally {
      if (saved === undefined) delete process.env.FINCTL_WEBHOOK_TIMEOUT_MS
      else process.env.FINCTL_WEBHOOK_TIMEOUT_MS = saved
    }
    // A port nobody listens on: the one of a server just closed.
    const gone = createServer()
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r))
    const port = (gone.address() as AddressInfo).port
    await new Promise((r) => gone.close(r))
    expect(await sendEvent(`http://127.0.0.1:${port}/`, 's', event, now)).toMatchObject({
      ok: false,
      status_code: null,
      error: 'ECONNREFUSED',
    })
  })
})
