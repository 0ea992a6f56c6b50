/**
 * The body guard parses a JSON body once, for every reader after it: Hono 4.13's `c.req.json()`
 * (which its validators call) would parse the cached text again. Through both body sources: the
 * in-process one (`env.embeddedBody`) and Node's request on a real socket.
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { bodyGuard } from '../../src/api/middleware/body-guard.js'
import type { AppEnv } from '../../src/api/env.js'

function probeApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use('*', bodyGuard)
  app.post('/probe', async (c) => {
    const a = await c.req.json()
    const b = await c.req.json()
    return c.json({ same: a === b, value: a })
  })
  app.onError((err, c) => c.json({ error: (err as { code?: string }).code ?? 'unknown' }, 400))
  return app
}

const body = JSON.stringify({ transactions: [{ amount: '1.00' }] })

describe('body guard', () => {
  it('hands the in-process body to every reader as one parsed value', async () => {
    const res = await probeApp().fetch(new Request('http://x/probe', { method: 'POST', headers: { 'content-type': 'application/json' } }), {
      embeddedBody: body,
    })
    expect(await res.json()).toEqual({ same: true, value: JSON.parse(body) })
  })

  it('hands a body read from a socket to every reader as one parsed value, and still refuses bad JSON', async () => {
    const app = probeApp()
    const server = serve({ fetch: (req, env) => app.fetch(req, env), hostname: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/probe`
      const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(await ok.json()).toEqual({ same: true, value: JSON.parse(body) })
      const bad = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' })
      expect(await bad.json()).toEqual({ error: 'invalid_json' })
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
