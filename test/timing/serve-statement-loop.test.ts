/**
 * A running `finctl serve` keeps answering /healthz while it parses hostile statement files
 * (docs/parser-limits.md): the event loop is never held for 100 ms more than it is anyway on this
 * machine beside a busy thread. The limits themselves: test/api/statement-limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { busyThread, longestHealthz } from '../helpers/healthz.js'
import { createHarness, startServeProcess, stopProcess, type Harness, type Tenant } from '../helpers/harness.js'
import { HOSTILE } from '../import/statements/hostile.js'

const hostile = (name: string) => HOSTILE.find((h) => h.name === name)!
const base64 = (text: string) => Buffer.from(text).toString('base64')

describe('finctl serve parsing hostile files', () => {
  let h: Harness
  let t: Tenant
  let url: string
  let child: Awaited<ReturnType<typeof startServeProcess>>['child']
  beforeAll(async () => {
    h = await createHarness('embedded')
    t = await h.tenant()
    ;({ url, child } = await startServeProcess(h.database))
  })
  afterAll(async () => {
    if (child) await stopProcess(child)
    await h?.close()
  })

  let attempt = 0
  // A busy machine holds any process now and then: the measure is set against the longest wait of a
  // stretch as long without any parse, and two more attempts are allowed before it fails.
  it('keeps /healthz answering within 100 ms of its usual time while it parses them', { retry: 2 }, async () => {
    const c = h.client({ apiKey: t.key })
    const remote = openRemote()
    const serve = new Client({ baseUrl: url, fetch: remote.fetch, apiKey: t.key, maxRetries: 0 })
    // An account of its own per attempt: the same files again would be refused as duplicates.
    const name = `Hostile ${++attempt}`
    const acct = (await c.accounts.create({ name, account_type: 'checking', currency_code: 'EUR' })).id
    // The file (20,000 distinct nested tags, 165 KiB: 20 s on the loop before), four times
    // that, and the worst small files of each kind (the embedded core would read these on its loop).
    const deep = hostile('ofx-sgml: deep distinct aggregates')
    const files: Array<[string, string]> = [
      ['deep.ofx', deep.make(deep.n)],
      ['deeper.ofx', deep.make(4 * deep.n)],
      ['tags.camt', hostile('camt053: many distinct tags').make(1_000)],
      ['records.camt', hostile('camt053: many tiny records').make(100)],
      ['records.sta', hostile('mt940: many tiny records').make(300)],
      ['lines.csv', hostile('csv: one huge line of fields').make(7_500)],
    ]
    for (const [, text] of files.slice(2)) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(16 * 1024)
    const started = performance.now()
    const hostileRun = (async () => {
      for (const [name, text] of files) {
        const s = await serve.statements.upload({
          bank_account_id: acct,
          file_name: name,
          content_base64: base64(text),
          exchange_rate: '1.1',
        })
        const done = await serve.statements.wait(s.id, { timeoutMs: 120_000 })
        expect(done.status, `${name}: ${done.error}`).toBe('completed')
      }
    })()
    const during = await longestHealthz(url, hostileRun).finally(() => remote.close())
    // The parse worker takes a processor of this two-core machine: so does the busy thread here.
    const usual = await longestHealthz(url, busyThread(performance.now() - started))
    expect(during, `longest /healthz ${Math.round(during)} ms while parsing, ${Math.round(usual)} ms beside a busy thread`).toBeLessThan(
      usual + 100,
    )
  })
})
