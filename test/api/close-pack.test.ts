/**
 * The auditor's pack through both transports on both stores (/api-v1/close/{month}/pack and its
 * signature): what a closed month's pack holds, the company's key made on the first signature and
 * shown by GET /company, and a manifest signed only when it is of the month's latest close, still
 * closed, with its figures; a key without `close` cannot sign, a reopened month cannot be packed.
 */
import { createPublicKey, verify } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { previousMonth } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { minimalPdf } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const today = new Date().toISOString().slice(0, 10)
const M = previousMonth(today.slice(0, 7))

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('the auditor pack over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  let txId: string
  let docId: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Pack')
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
    txId = (
      await c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: `${M}-03`,
        description: 'Paper',
        amount: '-12.50',
      })
    ).id
    await c.transactions.create({ bank_account_id: a.accountId, transaction_date: `${M}-09`, description: 'Fee', amount: '-1.25' })
    docId = (
      await c.documents.add({ file_name: 'r.pdf', content_base64: minimalPdf('Paper 12.50').toString('base64'), transaction_id: txId })
    ).id
  })
  afterAll(async () => {
    await h?.close()
  })

  it('a month never closed: 404; no key yet: GET /company says null', async () => {
    await rejects(c.closePack.contents(M), 'not_found')
    expect((await c.company()).pack_public_key).toBeNull()
  })

  it("the pack's contents: the latest close with sequence and figures, the documents, the audit entries", async () => {
    await owner.close.month(M, { force: true, reason: 'pack test' })
    const p = await c.closePack.contents(M)
    expect(p.month).toBe(M)
    expect(p.close).toMatchObject({ sequence: 1, action: 'close', forced: true, rows_count: 2 })
    expect(p.close.figures).toEqual([{ bank_account_id: a.accountId, currency_code: 'USD', transactions: 2, total: '-13.75' }])
    expect(p.rows_sha256_now).toBe(p.close.rows_sha256)
    expect(p.documents).toEqual([expect.objectContaining({ id: docId, kind: 'pdf', transaction_ids: [txId] })])
    expect(p.audit_entries.map((e) => e.action)).toContain('document_linked')
    expect(p.statements).toEqual([])
    expect(p.reconciliation).toEqual([])
  })

  const manifestOf = async (over: Record<string, unknown> = {}) => {
    const p = await c.closePack.contents(M)
    return Buffer.from(
      JSON.stringify({
        month: M,
        company_id: a.companyId,
        close: { id: p.close.id, rows_sha256: p.close.rows_sha256, figures: p.close.figures },
        ...over,
      }),
    )
  }

  it("signs a manifest of the latest close with the company's key, made once and shown by GET /company", async () => {
    const bytes = await manifestOf()
    const s = await owner.closePack.sign(M, bytes)
    expect(s.algorithm).toBe('ed25519')
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: s.public_key }, format: 'jwk' })
    expect(verify(null, bytes, key, Buffer.from(s.signature, 'base64'))).toBe(true)
    expect((await c.company()).pack_public_key).toBe(s.public_key)
    expect((await owner.closePack.sign(M, bytes)).public_key).toBe(s.public_key)
  })

  it('refuses to sign what is not the close: another month, another close, other figures, not JSON; a key without close', async () => {
    const p = await c.closePack.contents(M)
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('not json'), 'is not JSON'],
      [await manifestOf({ month: previousMonth(M) }), `is of month ${previousMonth(M)}`],
      [await manifestOf({ company_id: 'someone-else' }), 'is of another company'],
      [await manifestOf({ close: { id: p.close.id + 100, rows_sha256: p.close.rows_sha256, figures: p.close.figures } }), 'not the month'],
      [await manifestOf({ close: { id: p.close.id, rows_sha256: p.close.rows_sha256, figures: [] } }), 'does not carry the figures'],
    ]
    for (const [bytes, words] of cases) {
      const e = await rejects(owner.closePack.sign(M, bytes), 'validation_error')
      expect(e.message).toContain('manifest_base64: the manifest')
      expect(e.message).toContain(words)
    }
    await rejects(c.closePack.sign(M, await manifestOf()), 'forbidden')
  })

  it('a reopened month: 409 for its pack and its signature', async () => {
    const bytes = await manifestOf()
    await owner.close.reopen(M, 'late')
    expect((await rejects(c.closePack.contents(M), 'conflict')).message).toContain('close it again before packing it')
    await rejects(owner.closePack.sign(M, bytes), 'conflict')
    await owner.close.month(M, { force: true, reason: 'again' })
    expect((await c.closePack.contents(M)).close.sequence).toBe(2)
  })
})
