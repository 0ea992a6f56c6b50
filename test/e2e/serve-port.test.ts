/**
 * `finctl serve` on a port another program holds: one line in the flags' words and
 * exit 2, no "internal error"; the database is closed again (the process ends by itself).
 */
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Sandbox } from '../helpers/cli.js'

describe('serve on a port in use', () => {
  let sb: Sandbox
  let taken: Server
  let port: number

  beforeAll(async () => {
    sb = new Sandbox('serve-port')
    taken = createServer()
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r))
    port = (taken.address() as { port: number }).port
  })
  afterAll(async () => {
    await new Promise((r) => taken?.close(r))
    sb?.cleanup()
  })

  it('says the port is in use and which flag to give, exit 2', async () => {
    const r = await sb.run(['serve', '--port', String(port), '--database', join(sb.dir, 'serve.db')], { timeoutMs: 60_000 })
    expect(r.stderr).toContain(`error: port ${port} on 127.0.0.1 is in use by another program: stop it or give --port N`)
    expect(r.stderr).not.toContain('internal error')
    expect(r.stderr).not.toContain('listening on')
    expect(r.code).toBe(2)
  })
})
