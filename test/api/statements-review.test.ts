/**
 * `statements upload --review` (POST /statements with review: true): no statement is recorded until
 * `imports apply`, so neither the statements list nor the account's transactions see it; its lines
 * are the batch's pending rows. Apply uploads the kept file once (a second apply records nothing),
 * discard drops it, and a revert of the applied upload gives the statement back to "not uploaded".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const ofx = (acct: string, lines: Array<[string, string, string]>) =>
  Buffer.from(
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>${acct}<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>` +
      lines
        .map(([d, amt, name], i) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${d}<TRNAMT>${amt}<FITID>R${acct}${i}<NAME>${name}</STMTTRN>`)
        .join('') +
      '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
  ).toString('base64')

describe.each(MATRIX)('statements upload --review over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Statement review')
    c = h.client({ apiKey: a.key })
  })
  afterAll(async () => {
    await h?.close()
  })

  const newAccount = async (name: string) => (await c.accounts.create({ name, account_type: 'checking', currency_code: 'USD' })).id
  const statements = async (acct: string) => (await c.statements.list({ bank_account_id: acct })).data
  const rows = async (acct: string) =>
    (await c.transactions.list({ bank_account_id: acct, limit: 100 })).data
      .map((t) => `${t.transaction_date} ${t.description} ${t.amount}`)
      .sort()

  it('keeps the statement pending and out of sight; apply uploads it once; a revert gives it back to not uploaded', async () => {
    const acct = await newAccount('Review stmt')
    const file = ofx('71', [
      ['20240301', '-11.00', 'Shop 1'],
      ['20240302', '-4.50', 'Cafe'],
    ])
    const b = await c.statements.uploadForReview({ bank_account_id: acct, file_name: 'mar.ofx', content_base64: file })
    expect(b).toMatchObject({ kind: 'statement', state: 'pending', statement_id: null, read: 2 })
    expect(await statements(acct)).toEqual([])
    expect(await rows(acct)).toEqual([])
    const page = await c.imports.pending(b.id)
    expect(page.data.rows.map((r) => [r.transaction.transaction_date, r.transaction.description, r.transaction.amount])).toEqual([
      ['2024-03-01', 'Shop 1', '-11.00'],
      ['2024-03-02', 'Cafe', '-4.50'],
    ])
    // Lines of a statement are uploaded as the file says them: set and remap are refused.
    await expect(c.imports.setRow(b.id, page.data.rows[0].line, { category: 'X' })).rejects.toMatchObject({ code: 'conflict' })
    await expect(c.imports.remap(b.id, { map: ['category=Memo'] })).rejects.toMatchObject({ code: 'conflict' })

    const applied = await c.imports.apply(b.id)
    expect(applied.statement_id).toEqual(expect.any(String))
    const st = await c.statements.wait(applied.statement_id as string)
    expect(st).toMatchObject({ status: 'completed', transaction_count: 2 })
    expect(await rows(acct)).toEqual(['2024-03-01 Shop 1 -11', '2024-03-02 Cafe -4.5'])
    expect((await statements(acct)).map((s) => s.id)).toEqual([st.id])
    const again = await c.imports.apply(b.id)
    expect(again.applied).toEqual({ created: 0, existing: 0, reconciled: 0, rejected: 0 })
    expect(await statements(acct)).toHaveLength(1)
    expect((await c.imports.get(b.id)).counts).toMatchObject({ created: 2 })

    // Revert: the lines and the statement go; the same file uploads again.
    const r = await c.imports.revert(b.id)
    expect(r.deleted).toBe(2)
    expect(await statements(acct)).toEqual([])
    expect(await rows(acct)).toEqual([])
    const up = await c.statements.upload({ bank_account_id: acct, file_name: 'mar.ofx', content_base64: file })
    expect((await c.statements.wait(up.id)).status).toBe('completed')
    expect(await rows(acct)).toHaveLength(2)
  })

  it('discard drops a pending upload; a file uploaded before is refused at review; a bad file names it', async () => {
    const acct = await newAccount('Review discard')
    const file = ofx('72', [['20240305', '-9.00', 'Shop 2']])
    const b = await c.statements.uploadForReview({ bank_account_id: acct, file_name: 'd.ofx', content_base64: file })
    expect((await c.imports.discard(b.id)).state).toBe('discarded')
    await expect(c.imports.apply(b.id)).rejects.toMatchObject({ code: 'conflict' })
    expect(await statements(acct)).toEqual([])

    const up = await c.statements.upload({ bank_account_id: acct, file_name: 'd.ofx', content_base64: file })
    await c.statements.wait(up.id)
    const twice = await c.statements
      .uploadForReview({ bank_account_id: acct, file_name: 'd.ofx', content_base64: file })
      .catch((e: unknown) => e)
    expect(twice).toBeInstanceOf(AppError)
    expect((twice as AppError).message).toContain('uploaded to this bank account before')

    const bad = await c.statements
      .uploadForReview({
        bank_account_id: acct,
        file_name: 'x.ofx',
        format: 'ofx',
        content_base64: Buffer.from('not a statement').toString('base64'),
      })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(AppError)
    expect((bad as AppError).code).toBe('validation_error')
  })
})
