/**
 * The embedded transport's close while a request is still in the app (a command stopped by Ctrl-C
 * with a read in flight, as `logs tail` is): the request answers, and only then the store closes,
 * so no "internal error ... driver has already been destroyed" reaches the user's stderr.
 */
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Client, EMBEDDED_BASE_URL } from '../../src/client/client.js'
import { openEmbedded } from '../../src/embedded/embedded.js'
import { STORES, createHarness } from '../helpers/harness.js'

describe.each(STORES)('the embedded transport closing with requests in flight on %s', (storeKind) => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers each request before the store closes; nothing is reported as an internal error', async () => {
    const h = await createHarness('embedded', storeKind, { own: true })
    const { key } = await h.tenant()
    await h.close({ keepFiles: true })
    const errors: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
      if (String(chunk).includes('internal error')) errors.push(String(chunk))
      return write(chunk, ...rest)
    }) as typeof process.stderr.write)
    try {
      const statuses: number[] = []
      // The race is a matter of a few microtasks: try it often enough to meet it.
      for (let i = 0; i < 15; i++) {
        const t = await openEmbedded(h.database, { poolSize: 2 })
        const client = new Client({ baseUrl: EMBEDDED_BASE_URL, fetch: t.fetch, apiKey: key, maxRetries: 0 })
        const answer = client.request('GET', '/api-v1/company').then(
          () => 200,
          (e: { status?: number }) => e.status ?? 0,
        )
        await new Promise((r) => setImmediate(r))
        await t.close()
        statuses.push(await answer)
      }
      expect(errors).toEqual([])
      expect(statuses).toEqual(Array(15).fill(200))
    } finally {
      rmSync(h.dir, { recursive: true, force: true })
    }
  })
})
