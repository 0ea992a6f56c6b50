/**
 * Hostile statement files against the service (docs/parser-limits.md): a file whose parse reaches
 * the worker's time or heap limit is a failed statement that says which limit, through both
 * transports on both stores. That a running `finctl serve` keeps answering while it parses them:
 * test/timing/serve-statement-loop.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'
import { HOSTILE } from '../import/statements/hostile.js'

const hostile = (name: string) => HOSTILE.find((h) => h.name === name)!
const base64 = (text: string) => Buffer.from(text).toString('base64')

/** Set environment variables for the life of a harness (the embedded core reads them in this process, serve from its own). */
function withEnv(vars: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

async function upload(c: Client, accountId: string, fileName: string, text: string) {
  const s = await c.statements.upload({
    bank_account_id: accountId,
    file_name: fileName,
    content_base64: base64(text),
    exchange_rate: '1.1',
  })
  return c.statements.wait(s.id, { timeoutMs: 120_000 })
}

describe.each(MATRIX)('statement parse limits over %s on %s', (kind, storeKind) => {
  let h: Harness
  let t: Tenant
  let c: Client
  let restore: () => void
  beforeAll(async () => {
    // One millisecond: no worker answers in time.
    restore = withEnv({ FINCTL_PARSE_TIMEOUT_MS: '1' })
    h = await createHarness(kind, storeKind)
    t = await h.tenant()
    c = h.client({ apiKey: t.key })
  })
  afterAll(async () => {
    restore?.()
    await h?.close()
  })

  it('a file the worker cannot read in time is a failed statement with the reason, nothing imported', async () => {
    const acct = (await c.accounts.create({ name: 'Limits', account_type: 'checking', currency_code: 'EUR' })).id
    const s = await upload(c, acct, 'big.ofx', hostile('ofx-sgml: many tiny records').make(300))
    expect(s).toMatchObject({ status: 'failed', line_count: 0, transaction_count: 0 })
    expect(s.error).toMatch(
      /reading the file took longer than the server allows \(0\.001 s, FINCTL_PARSE_TIMEOUT_MS\): nothing was imported/,
    )
    expect((await c.transactions.list({ bank_account_id: acct, limit: 1, include_total: true })).pagination?.total).toBe(0)
    // The embedded core reads a small file on its loop, without the limit; finctl serve reads every file on a worker.
    const small = await upload(c, acct, 'small.ofx', hostile('ofx-sgml: many tiny records').make(20))
    if (kind === 'embedded') expect(small).toMatchObject({ status: 'completed', line_count: 20, transaction_count: 20 })
    else expect(small).toMatchObject({ status: 'failed', error: expect.stringMatching(/took longer than the server allows/) })
  })
})

describe.each(['embedded', 'http'] as const)('statement parse heap limit over %s on sqlite', (kind) => {
  let h: Harness
  let restore: () => void
  beforeAll(async () => {
    restore = withEnv({ FINCTL_PARSE_HEAP_MB: '20' })
    h = await createHarness(kind)
  })
  afterAll(async () => {
    restore?.()
    await h?.close()
  })

  it('a file the worker cannot read within its heap is a failed statement with the reason', async () => {
    const t = await h.tenant()
    const c = h.client({ apiKey: t.key })
    const acct = (await c.accounts.create({ name: 'Heap', account_type: 'checking', currency_code: 'EUR' })).id
    const s = await upload(c, acct, 'big.ofx', hostile('ofx-sgml: many tiny records').make(40_000))
    expect(s).toMatchObject({ status: 'failed', transaction_count: 0 })
    expect(s.error).toMatch(
      /reading the file needs more memory than the server allows \(20 MiB, FINCTL_PARSE_HEAP_MB\): nothing was imported/,
    )
  })
})
