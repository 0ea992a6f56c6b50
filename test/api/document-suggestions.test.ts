/**
 * Matching through the API (docs/documents.md, "Matching"), both transports on both stores: a
 * document matching one transaction alone is linked when added (auto_linked, audited), one with
 * two equal candidates is not; suggestions answer each candidate's score and why; apply links
 * the sure ones; auto_link=false leaves a document unlinked; one company never sees another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { ciiInvoice, textPdf, ublInvoiceOf } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('document suggestions over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let c: Client
  const tx: Record<string, string> = {}

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Suggest')
    c = h.client({ apiKey: a.key })
    const rows: Array<[string, string, string, string]> = [
      ['acme', '2026-10-03', '-119.00', 'SEPA ACME Tools GmbH'],
      ['other', '2026-10-20', '-119.00', 'Card payment'],
      ['twin1', '2026-10-09', '-89.00', 'Amazon Marketplace'],
      ['twin2', '2026-10-09', '-89.00', 'Amazon Marketplace'],
      ['rent', '2026-10-06', '-1234.50', 'Office rent Kruger'],
    ]
    for (const [k, date, amount, description] of rows)
      tx[k] = (await c.transactions.create({ bank_account_id: a.accountId, transaction_date: date, amount, description })).id
  })
  afterAll(async () => {
    await h?.close()
  })

  const add = (name: string, bytes: Buffer, more: { auto_link?: boolean } = {}) =>
    c.documents.add({ file_name: name, content_base64: bytes.toString('base64'), ...more })

  it('a CII invoice matching one transaction alone is linked when added, named in the answer and audited', async () => {
    const d = await add(
      'acme.xml',
      ciiInvoice({ id: `A-${kind}`, amount: '119.00', currency: 'USD', date: '2026-10-01', seller: 'ACME Tools GmbH' }),
    )
    expect(d).toMatchObject({ created: true, auto_linked: tx.acme, transaction_ids: [tx.acme] })
    expect(d.fields).toEqual({ amount: 119, currency: 'USD', date: '2026-10-01', merchant: 'ACME Tools GmbH', source: 'cii' })
    const audit = await h.store.db
      .selectFrom('audit_entries')
      .select(['action', 'changes'])
      .where('transaction_id', '=', tx.acme)
      .where('action', '=', 'document_linked')
      .execute()
    expect(audit.filter((r) => r.changes.includes(d.id))).toHaveLength(1)
  })

  it('two equal candidates: not linked; the suggestion shows both, each with its score and why', async () => {
    const d = await add('amazon.pdf', textPdf(['Amazon Marketplace', `Order ${kind} ${storeKind}`, '2026-10-09', 'Order Total USD 89.00']))
    expect(d.auto_linked).toBeNull()
    expect(d.transaction_ids).toEqual([])
    const s = await c.documents.suggestion(d.id)
    expect(s.auto_link).toBeNull()
    expect(s.fields).toMatchObject({ amount: 89, currency: 'USD', date: '2026-10-09', source: 'pdf_text' })
    // Both, equal; the rent three days before is no candidate: the date alone does not make one.
    expect(s.candidates.map((x) => x.transaction_id).sort()).toEqual([tx.twin1, tx.twin2].sort())
    expect(s.candidates[1].score).toBe(s.candidates[0].score)
    expect(s.candidates[0]).toMatchObject({ score: 1, amount_matches: true, amount: -89, currency_code: 'USD' })
    expect(s.candidates[0].why).toEqual([
      'amount 89.00 USD the same',
      'same date',
      'merchant "Amazon Marketplace" named in the transaction',
    ])
    const all = await c.documents.suggestions()
    expect(all.map((x) => x.document_id)).toContain(d.id)
  })

  it('auto_link=false leaves a sure match unlinked; apply links it (and only what is sure)', async () => {
    const d = await add(
      'kruger.xml',
      ublInvoiceOf({ id: `K-${kind}`, amount: '1234.50', currency: 'USD', date: '2026-10-01', seller: 'Kruger' }),
      {
        auto_link: false,
      },
    )
    expect(d).toMatchObject({ auto_linked: null, transaction_ids: [] })
    expect((await c.documents.suggestion(d.id)).auto_link).toBe(tx.rent)
    const done = await c.documents.applySuggestions()
    expect(done.linked).toEqual([{ document_id: d.id, transaction_id: tx.rent, score: expect.any(Number) }])
    expect(done.left).toBeGreaterThanOrEqual(1)
    expect((await c.documents.get(d.id)).transaction_ids).toEqual([tx.rent])
    expect((await c.documents.suggestions()).map((x) => x.document_id)).not.toContain(d.id)
  })

  it("another currency is no amount match; an unknown document is a 404, and so is another company's", async () => {
    const d = await add('eur.xml', ublInvoiceOf({ id: `E-${kind}`, amount: '119.00', currency: 'EUR', date: '2026-10-03', seller: 'ACME' }))
    expect(d.auto_linked).toBeNull()
    const s = await c.documents.suggestion(d.id)
    expect(s.candidates.every((x) => !x.amount_matches)).toBe(true)
    expect(s.candidates[0].why).toContain('amount in EUR, the transaction in USD')
    const missing = await c.documents.suggestion('01900000-0000-7000-8000-000000000000').catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(AppError)
    expect((missing as AppError).status).toBe(404)
    const b = await h.tenant('Other')
    const theirs = await h
      .client({ apiKey: b.key })
      .documents.suggestion(d.id)
      .catch((e: unknown) => e)
    expect((theirs as AppError).status).toBe(404)
    const applied = await h
      .client({ apiKey: b.key })
      .documents.applySuggestions(d.id)
      .catch((e: unknown) => e)
    expect((applied as AppError).status).toBe(404)
  })

  it('a document whose fields were never read (added before they were kept) is read when first matched, then kept', async () => {
    const d = await add('old.xml', ublInvoiceOf({ id: `O-${kind}`, amount: '55.00', currency: 'USD', date: '2026-10-02', seller: 'Old' }), {
      auto_link: false,
    })
    const blank = { amount_minor: null, currency: null, document_date: null, merchant: null, fields_source: null, fields_read_at: null }
    await h.store.db.updateTable('documents').set(blank).where('id', '=', d.id).execute()
    expect((await c.documents.get(d.id)).fields).toBeNull()
    expect((await c.documents.suggestion(d.id)).fields).toEqual({
      amount: 55,
      currency: 'USD',
      date: '2026-10-02',
      merchant: 'Old',
      source: 'ubl',
    })
    expect((await c.documents.get(d.id)).fields).toMatchObject({ amount: 55, source: 'ubl' })
  })

  it('multipart takes auto_link too', async () => {
    const pdf = textPdf([`ACME Tools GmbH ${kind} ${storeKind}`, 'Date: 2026-10-03', 'Total USD 119.00'])
    const b = 'finctl-suggest-boundary-7x'
    const body = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="auto_link"\r\n\r\nfalse\r\n`),
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="acme-copy.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from(`\r\n--${b}--\r\n`),
    ])
    const res = await h.fetch(`${h.baseUrl}/api-v1/documents`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': `multipart/form-data; boundary=${b}` },
      body,
    })
    expect(res.status).toBe(201)
    const data = ((await res.json()) as { data: { auto_linked: string | null; transaction_ids: string[] } }).data
    expect(data).toMatchObject({ auto_linked: null, transaction_ids: [] })
  })
})
