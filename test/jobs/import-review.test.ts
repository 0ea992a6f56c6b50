/**
 * `tx import --review`'s stages (src/jobs/import/pipeline.ts with `review`) against a real core,
 * through both transports on both stores: real bank files of the corpus are staged, nothing is
 * created, the summary's pending count and sum are those of SOURCES.md, and `imports apply` then
 * lands exactly those rows; a hand-made file's bad rows are named by line before anything is kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { runPipeline } from '../../src/jobs/import/pipeline.js'
import { toMinor } from '../../src/kernel/money.js'
import { bankFile, HAS_BANK_FILES } from '../helpers/bank-files.js'
import { createHarness, MATRIX, type Harness } from '../helpers/harness.js'

let tmp = ''
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'finctl-import-review-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe.each(MATRIX)('tx import --review over %s on %s', (kind, storeKind) => {
  let h: Harness
  let c: Client
  let n = 0
  const newAccount = async (currency: string) =>
    (await c.accounts.create({ name: `Review ${++n}`, account_type: 'checking', currency_code: currency })).id
  const stored = async (account: string) => {
    const rows = (await c.transactions.list({ bank_account_id: account, limit: 1000 })).data
    return { count: rows.length, sum: rows.reduce((s, t) => s + toMinor(String(t.amount), t.currency_code), 0) }
  }

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    const a = await h.tenant('Reviewer')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  // [file, currency, rows, sum] as SOURCES.md gives them (test/jobs/import-runner.test.ts imports them directly).
  const FILES: Array<[string, string, number, string]> = [
    ['us-chase-style-checking-signed-balance.csv', 'USD', 6, '-1490.16'],
    ['es-ing-crlf-ddmmyyyy-signed.csv', 'EUR', 10, '350.21'],
    ['de-dab-bnp-bom-semicolon-decimal-comma.csv', 'EUR', 7, '10053.90'],
  ]
  it.skipIf(!HAS_BANK_FILES).each(FILES)(
    'stages %s pending, creates nothing; apply lands its rows once',
    async (file, currency, count, sum) => {
      const accountId = await newAccount(currency)
      const constants = currency === 'USD' ? {} : { exchange_rate: '1.1' }
      const s = await runPipeline(c, { path: bankFile('csv', file), mapping: {}, accountId, constants, review: true })
      expect(s.rejects).toEqual([])
      expect({ created: s.created, review: s.review?.pending, total: s.review?.pending_total, state: s.review?.state }).toEqual({
        created: 0,
        review: count,
        total: sum,
        state: 'pending',
      })
      expect(await stored(accountId)).toEqual({ count: 0, sum: 0 })
      const batch = await c.imports.get(s.batch_id as string)
      expect(batch).toMatchObject({ state: 'pending', read: count, options: { review: true } })

      const applied = await c.imports.apply(batch.id)
      expect(applied.applied.created).toBe(count)
      expect(await stored(accountId)).toEqual({ count, sum: toMinor(sum, currency) })
      // The same file imported directly afterwards: every row is there already.
      const again = await runPipeline(c, { path: bankFile('csv', file), mapping: {}, accountId, constants })
      expect({ created: again.created, already: again.already_imported }).toEqual({ created: 0, already: count })
    },
  )

  it('names bad rows by line and reason, and keeps only the valid ones', async () => {
    const accountId = await newAccount('USD')
    const path = join(tmp, `bad-${kind}-${storeKind}.csv`)
    writeFileSync(path, 'Date,Description,Amount\n2026-02-02,Paper,-5.00\n2026-02-03,,-2.50\n2026-02-04,Ink,abc\n2026-02-05,Toner,-30.00\n')
    const s = await runPipeline(c, { path, mapping: {}, accountId, review: true })
    expect(s.review).toMatchObject({ pending: 2, pending_total: '-35.00' })
    expect(s.rejects.map((r) => r.line)).toEqual([3, 4])
    expect(s.rejects[0].reason).toContain('description')
    expect(s.rejects[1].reason).toContain('amount')
    const page = await c.imports.pending(s.batch_id as string)
    expect(page.data.rows.map((r) => [r.line, r.transaction.description])).toEqual([
      [2, 'Paper'],
      [5, 'Toner'],
    ])
    const b = await c.imports.get(s.batch_id as string)
    expect(b).toMatchObject({ state: 'pending', counts: { rejected: 2 } })
    expect(b.rejects.map((r) => r.line)).toEqual([3, 4])
    expect(await stored(accountId)).toEqual({ count: 0, sum: 0 })
  })
})
