/**
 * Import batches (/api-v1/imports): opened, counted from the row batches that name them
 * (X-Import-Batch), finished, listed and read; a statement upload records one of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('import batches over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Batches')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const item = (n: number, extra: Record<string, unknown> = {}) => ({
    bank_account_id: a.accountId,
    transaction_date: `2026-03-0${(n % 9) + 1}`,
    description: `batch ${n}`,
    amount: `${n}.25`,
    import_ref: `batches.${n}`,
    ...extra,
  })

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await h.raw(method, path, {
      headers: { 'x-api-key': a.key, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return {
      status: res.status,
      body: (await res.json()) as {
        data: any
        error: { code: string; message: string; details?: Array<{ path: string }> }
        pagination: any
      },
    }
  }

  it('counts what the batches naming it created, found there already and rejected; a re-run counts them as there', async () => {
    const sha = 'a'.repeat(64)
    const b = await c.imports.create({
      kind: 'csv',
      bank_account_id: a.accountId,
      file_name: 'jan.csv',
      file_sha256: sha,
      options: { mapping: { dateFormat: 'ymd' } },
    })
    expect(b).toMatchObject({
      kind: 'csv',
      state: 'running',
      file_name: 'jan.csv',
      file_sha256: sha,
      counts: { created: 0, existing: 0, reconciled: 0, rejected: 0 },
    })
    const one = await c.transactions.batchMinimal([item(1), item(2)], { importBatch: b.id })
    expect(one.created).toHaveLength(2)
    await c.transactions.batchMinimal([item(3), item(4, { description: '' }), item(1)], { importBatch: b.id })
    const done = await c.imports.finish(b.id, {
      state: 'completed',
      read: 5,
      rejected: 1,
      rejects: [{ line: 5, reason: 'description: must not be empty' }],
    })
    expect(done).toMatchObject({ state: 'completed', read: 5, counts: { created: 3, existing: 1, reconciled: 0, rejected: 1 } })
    expect(done.rejects).toEqual([{ line: 5, reason: 'description: must not be empty' }])
    expect(done.options).toEqual({ mapping: { dateFormat: 'ymd' } })
    expect(done.actor).toBeTruthy()
    expect(done.finished_at).not.toBeNull()

    // Each creating write of the batch names it in its rows_created chain entry: the batch's rows are found through them.
    const entries = await h.store.db.selectFrom('audit_entries').select('changes').where('action', '=', 'rows_created').execute()
    const mine = entries
      .map((e) => JSON.parse(e.changes as string) as { count: number; batch_id?: string })
      .filter((c) => c.batch_id === b.id)
    expect(mine.reduce((n, c) => n + c.count, 0)).toBe(3)
    const rows = await call('GET', `/api-v1/transactions?import_batch_id=${b.id}&limit=100`)
    expect(rows.body.data.map((t: { description: string }) => t.description).sort()).toEqual(['batch 1', 'batch 2', 'batch 3'])

    // The same rows again, in a new batch: nothing twice, all of them there already.
    const again = await c.imports.create({ file_name: 'jan.csv', bank_account_id: a.accountId })
    await c.transactions.batchMinimal([item(1), item(2), item(3)], { importBatch: again.id })
    expect((await c.imports.finish(again.id, { state: 'completed' })).counts).toEqual({
      created: 0,
      existing: 3,
      reconciled: 0,
      rejected: 0,
    })
    expect((await c.transactions.list({ bank_account_id: a.accountId, limit: 100 })).data).toHaveLength(3)
    expect((await call('GET', `/api-v1/transactions?import_batch_id=${again.id}`)).body.data).toEqual([])

    // Listed newest first, in keyset pages.
    const p1 = await c.imports.list({ limit: 1 })
    expect(p1.data.map((x) => x.id)).toEqual([again.id])
    expect(p1.pagination?.has_more).toBe(true)
    const p2 = await c.imports.list({ limit: 1, cursor: p1.pagination?.next_cursor ?? undefined })
    expect(p2.data.map((x) => x.id)).toEqual([b.id])
  })

  it('refuses bad input with a 4xx naming the field, and rows for a batch that is not running', async () => {
    const bad = await call('POST', '/api-v1/imports', { file_name: 'x.csv', file_sha256: 'nope' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details?.map((d) => d.path)).toContain('file_sha256')
    const noAccount = await call('POST', '/api-v1/imports', { file_name: 'x.csv', bank_account_id: '00000000-0000-4000-8000-000000000000' })
    expect(noAccount.status).toBe(400)
    expect(noAccount.body.error.message).toContain('bank_account_id')
    const b = await c.imports.create({ file_name: 'x.csv' })
    const badState = await call('POST', `/api-v1/imports/${b.id}/finish`, { state: 'done' })
    expect(badState.status).toBe(400)
    expect(badState.body.error.details?.map((d) => d.path)).toContain('state')
    await c.imports.finish(b.id, { state: 'interrupted' })
    expect((await call('POST', `/api-v1/imports/${b.id}/finish`, { state: 'completed' })).status).toBe(409)
    const late = await call('POST', '/api-v1/transactions/batch', { transactions: [item(9)] }, { 'x-import-batch': b.id })
    expect(late.status).toBe(400)
    expect(late.body.error.message).toContain('X-Import-Batch')
    expect((await c.transactions.list({ bank_account_id: a.accountId, limit: 100 })).data.map((t) => t.description)).not.toContain(
      'batch 9',
    )
    expect((await call('GET', '/api-v1/imports/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    // Another company sees none of them.
    const other = await h.tenant('Other')
    const theirs = await h.raw('GET', `/api-v1/imports/${b.id}`, { headers: { 'x-api-key': other.key } })
    expect(theirs.status).toBe(404)
  })

  it("records a statement upload as a batch whose state and counts are the statement's", async () => {
    const ofx = (days: number[]) =>
      Buffer.from(
        'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>99<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>' +
          days.map((d) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2024010${d}<TRNAMT>-1${d}.00<FITID>F${d}<NAME>Shop ${d}</STMTTRN>`).join('') +
          '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
      )
    const acct = (await c.accounts.create({ name: 'Statements', account_type: 'checking', currency_code: 'USD' })).id
    const up = async (name: string, bytes: Buffer) => {
      const s = await c.statements.upload({ bank_account_id: acct, file_name: name, content_base64: bytes.toString('base64') })
      expect(s.batch_id).toBeTruthy()
      await c.statements.wait(s.id)
      return c.imports.get(s.batch_id as string)
    }
    const first = await up('a.ofx', ofx([1, 2, 3]))
    expect(first).toMatchObject({
      kind: 'statement',
      file_name: 'a.ofx',
      state: 'completed',
      read: 3,
      counts: { created: 3, existing: 0, reconciled: 0 },
    })
    expect(first.file_sha256).toMatch(/^[0-9a-f]{64}$/)
    const second = await up('b.ofx', ofx([2, 3, 4]))
    expect(second.counts).toMatchObject({ created: 1, existing: 2 })
    expect((await c.imports.list({ kind: 'statement' })).data.map((x) => x.id)).toEqual([second.id, first.id])
    const finish = await call('POST', `/api-v1/imports/${second.id}/finish`, { state: 'completed' })
    expect(finish.status).toBe(409)
  })
})
