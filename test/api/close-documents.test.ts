/**
 * The close's document policy through both transports on both stores (GET/PUT /api-v1/close/policy
 * and the status): the month's transactions at or above a currency's threshold without a document
 * are listed; with require_documents on they keep the month from being ready and close is refused
 * naming them, until a document is linked. Off by default; set by the owner only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { previousMonth } from '../../src/domain/accounts/period-lock.js'
import { AppError } from '../../src/kernel/errors.js'
import { minimalPdf } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

const M = previousMonth(new Date().toISOString().slice(0, 7))

async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => new Error('expected an error'),
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(AppError)
  expect((e as AppError).code, (e as AppError).message).toBe(code)
  return e as AppError
}

describe.each(MATRIX)('documents before a close over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  let owner: Client
  const tx: Record<string, string> = {}

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Docs policy')
    c = h.client({ apiKey: a.key })
    owner = h.client({ token: a.token })
    const create = async (name: string, amount: string, day: string) =>
      (tx[name] = (
        await c.transactions.create({ bank_account_id: a.accountId, transaction_date: `${M}-${day}`, description: name, amount })
      ).id)
    await create('laptop', '-1499.00', '04')
    await create('refund', '250.00', '08')
    await create('coffee', '-4.20', '09')
    await create('exactly', '-100.00', '10')
  })
  afterAll(async () => {
    await h?.close()
  })

  it('off by default: nothing listed, nothing blocks', async () => {
    expect(await c.closePolicy.get()).toEqual({ document_thresholds: {}, require_documents: false, updated_by: null, updated_at: null })
    const s = await c.close.status(M)
    expect(s.company.documents_missing).toBe(0)
    expect(s.documents_missing).toEqual([])
  })

  it('a threshold lists the transactions at or above it without a document, both signs; it blocks only when required', async () => {
    const p = await owner.closePolicy.set({ document_thresholds: { USD: '100.00' } })
    expect(p).toMatchObject({ document_thresholds: { USD: '100.00' }, require_documents: false })
    const s = await c.close.status(M)
    expect(s.documents_missing.map((d) => d.id)).toEqual([tx.laptop, tx.refund, tx.exactly])
    expect(s.documents_missing[0]).toMatchObject({ amount: '-1499.00', currency_code: 'USD', description: 'laptop' })
    expect(s.company.documents_missing).toBe(3)
    expect(s.accounts[0].documents_missing).toBe(3)
    expect(s.accounts[0].blockers.join()).not.toContain('without a document')
    await owner.closePolicy.set({ require_documents: true })
    const blocked = await c.close.status(M)
    expect(blocked.ready).toBe(false)
    expect(blocked.accounts[0].blockers).toContain('3 without a document (at or above the threshold)')
  })

  it('close refuses naming the rows; a linked document takes a row off', async () => {
    await c.documents.add({
      file_name: 'laptop.pdf',
      content_base64: minimalPdf('Laptop 1499.00').toString('base64'),
      transaction_id: tx.laptop,
    })
    const e = await rejects(owner.close.month(M, {}), 'not_ready')
    expect(e.message).toContain('without a document:')
    expect(e.message).toContain(tx.refund)
    expect(e.message).toContain(tx.exactly)
    expect(e.message).not.toContain(tx.laptop)
    expect(e.message).not.toContain(tx.coffee)
    expect((await c.close.status(M)).company.documents_missing).toBe(2)
  })

  it('bad input is named by field; only the owner sets it', async () => {
    const bad = await rejects(owner.closePolicy.set({ document_thresholds: { XXQ: '1.00' } }), 'validation_error')
    expect(bad.message).toContain('document_thresholds.XXQ')
    const decimals = await rejects(owner.closePolicy.set({ document_thresholds: { JPY: '1.50' } }), 'validation_error')
    expect(decimals.message).toContain('document_thresholds.JPY')
    await rejects(owner.closePolicy.set({ document_thresholds: { USD: '0' } }), 'validation_error')
    await rejects(c.closePolicy.set({ require_documents: false }), 'forbidden')
    const off = await owner.closePolicy.set({ document_thresholds: { USD: null }, require_documents: false })
    expect(off.document_thresholds).toEqual({})
    expect((await c.close.status(M)).company.documents_missing).toBe(0)
  })
})
