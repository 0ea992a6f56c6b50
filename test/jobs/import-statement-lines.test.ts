/**
 * `tx import`'s runner and rows already on a statement: it asks each batch to pair
 * them (`match_statement_lines`) and counts them apart (`on_statement`); a service from before the
 * field refuses it once, and the import goes on without it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, type FetchLike } from '../../src/client/client.js'
import { runPipeline } from '../../src/jobs/import/pipeline.js'
import { createHarness, type Harness, type Tenant } from '../helpers/harness.js'

const CSV = 'Date,Description,Amount\n2026-03-02,Card payment Cafe,-4.20\n2026-03-03,Transfer from client,150.00\n2026-03-04,Books,-20.00\n'

describe('tx import and statement lines', () => {
  let h: Harness
  let a: Tenant
  let c: Client
  let tmp = ''
  let file = ''

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'finctl-import-lines-'))
    file = join(tmp, 'rows.csv')
    h = await createHarness('embedded', 'sqlite')
    a = await h.tenant('Lines')
    c = h.client({ apiKey: a.key })
    writeFileSync(file, CSV)
  })
  afterAll(async () => {
    await h?.close()
    rmSync(tmp, { recursive: true, force: true })
  })

  const account = async () => (await c.accounts.create({ name: `L${Math.random()}`, account_type: 'checking', currency_code: 'USD' })).id
  async function upload(accountId: string, csv: string): Promise<void> {
    const s = await c.statements.upload({
      bank_account_id: accountId,
      file_name: 's.csv',
      content_base64: Buffer.from(csv).toString('base64'),
    })
    expect((await c.statements.wait(s.id)).status).toBe('completed')
  }

  it('counts the rows found on a statement apart from those created and those imported before', async () => {
    const accountId = await account()
    await upload(accountId, 'Date,Description,Amount\n2026-03-02,CAFE,-4.20\n2026-03-04,BOOKS,-20.00\n')
    const s = await runPipeline(c, { path: file, mapping: {}, accountId })
    expect({
      created: s.created,
      on_statement: s.on_statement,
      already: s.already_imported,
      created_total: s.created_total,
      amount_total: s.amount_total,
    }).toEqual({
      created: 1,
      on_statement: 2,
      already: 0,
      created_total: '150.00',
      amount_total: '125.80',
    })
    const again = await runPipeline(c, { path: file, mapping: {}, accountId })
    expect([again.created, again.on_statement, again.already_imported]).toEqual([0, 0, 3])
  })

  it('a service that does not know match_statement_lines refuses it once; the import goes on without it', async () => {
    const accountId = await account()
    let refused = 0
    let sentWith = 0
    const old: FetchLike = async (url, init) => {
      if (url.endsWith('/api-v1/transactions/batch') && init.body && String(init.body).includes('"match_statement_lines"')) {
        sentWith++
        refused++
        const error = {
          code: 'validation_error',
          message: 'invalid body: match_statement_lines: unknown field',
          details: [{ path: 'match_statement_lines', message: 'unknown field' }],
          request_id: 'r',
        }
        return new Response(JSON.stringify({ success: false, error }), { status: 400, headers: { 'content-type': 'application/json' } })
      }
      return h.fetch(url, init)
    }
    const client = new Client({ baseUrl: h.baseUrl, fetch: old, apiKey: a.key, maxRetries: 0 })
    const s = await runPipeline(client, { path: file, mapping: {}, accountId, batchSize: 1, concurrency: 1 })
    expect({ created: s.created, rejected: s.rejected, mode: s.mode }).toEqual({ created: 3, rejected: 0, mode: 'batch' })
    expect([refused, sentWith]).toEqual([1, 1])
  })
})
