/**
 * Documents (/api-v1/documents): stored by content, the type told by the bytes, the size limit,
 * links to transactions (audited, with events), and one company never sees another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client/client.js'
import { AppError } from '../../src/kernel/errors.js'
import { minimalPdf, tinyPng, ublInvoice } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

/** A multipart/form-data body by hand (its parts and the file). */
function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array }): { body: Buffer; type: string } {
  const b = 'finctl-docs-boundary-3kq9'
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  parts.push(
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  )
  parts.push(Buffer.from(file.bytes), Buffer.from(`\r\n--${b}--\r\n`))
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` }
}

describe.each(MATRIX)('documents over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant
  let c: Client
  let txId: string

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Docs')
    b = await h.tenant('Other')
    c = h.client({ apiKey: a.key })
    txId = (
      await c.transactions.create({
        bank_account_id: a.accountId,
        transaction_date: '2026-03-02',
        description: 'Stationery',
        amount: '-12.50',
      })
    ).id
  })
  afterAll(async () => {
    await h?.close()
  })

  const add = (name: string, bytes: Buffer, transactionId?: string) =>
    c.documents.add({ file_name: name, content_base64: bytes.toString('base64'), transaction_id: transactionId })

  async function refused(p: Promise<unknown>): Promise<AppError> {
    const e = await p.then(
      () => new Error('expected an error'),
      (err: unknown) => err,
    )
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }

  it('stores a PDF by content: the same bytes again are the same document, and are linked when asked', async () => {
    const pdf = minimalPdf(`Receipt ${storeKind} ${kind}`)
    const first = await add('receipt.pdf', pdf)
    expect(first).toMatchObject({ created: true, kind: 'pdf', media_type: 'application/pdf', size: pdf.length, file_name: 'receipt.pdf' })
    expect(first.transaction_ids).toEqual([])
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/)
    const again = await add('copy-of-receipt.pdf', pdf, txId)
    expect(again).toMatchObject({ id: first.id, created: false, file_name: 'receipt.pdf', transaction_ids: [txId] })
    const back = await c.documents.content(first.id)
    expect(Buffer.from(back.bytes).equals(pdf)).toBe(true)
    expect(back.mediaType).toBe('application/pdf')
    const listed = await c.documents.list({ transaction_id: txId })
    expect(listed.data.map((d) => d.id)).toEqual([first.id])
  })

  it('the same new file added four times at once is one document, created once, linked once', async () => {
    const pdf = minimalPdf(`Race ${storeKind} ${kind}`)
    const all = await Promise.all([1, 2, 3, 4].map((n) => add(`race-${n}.pdf`, pdf, txId)))
    expect(new Set(all.map((d) => d.id)).size).toBe(1)
    expect(all.filter((d) => d.created)).toHaveLength(1)
    expect((await c.documents.get(all[0].id)).transaction_ids).toEqual([txId])
  })

  it('tells the type by the bytes: a .pdf that is a PNG is a PNG, a UBL invoice is kept, a text file named invoice.pdf is refused', async () => {
    const png = await add('scan.pdf', tinyPng())
    expect(png).toMatchObject({ kind: 'png', media_type: 'image/png', file_name: 'scan.pdf' })
    const ubl = await add('inv.xml', ublInvoice(`INV-${storeKind}`))
    expect(ubl).toMatchObject({ kind: 'ubl_invoice', media_type: 'application/xml' })
    const text = await refused(add('invoice.pdf', Buffer.from('Invoice 42\nTotal: 12.50 EUR\n')))
    expect(text.status).toBe(400)
    expect(text.message).toContain('"invoice.pdf" looks like plain text')
    const html = await refused(add('page.xml', Buffer.from('<?xml version="1.0"?><html><body/></html>')))
    expect(html.message).toContain('XML whose root is <html>')
  })

  it('refuses a document over 20 MiB with 413', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20)
    big.write('%PDF-1.4\n')
    const e = await refused(add('big.pdf', big))
    expect({ code: e.code, status: e.status }).toEqual({ code: 'payload_too_large', status: 413 })
  })

  it('takes multipart/form-data too', async () => {
    const pdf = minimalPdf(`Form ${storeKind} ${kind}`)
    const m = multipart({ transaction_id: txId }, { name: 'form.pdf', bytes: pdf })
    const res = await h.fetch(`${h.baseUrl}/api-v1/documents`, {
      method: 'POST',
      headers: { 'x-api-key': a.key, 'content-type': m.type },
      body: m.body,
    })
    const body = (await res.json()) as { data: { id: string; kind: string; file_name: string; transaction_ids: string[] } }
    expect(res.status).toBe(201)
    expect(body.data).toMatchObject({ kind: 'pdf', file_name: 'form.pdf', transaction_ids: [txId] })
    expect(Buffer.from((await c.documents.content(body.data.id)).bytes).equals(pdf)).toBe(true)
  })

  it('links and unlinks, audited in the transaction history, with events', async () => {
    const d = await add('contract.pdf', minimalPdf(`Contract ${storeKind} ${kind}`))
    expect((await c.documents.list({ unlinked: true })).data.map((x) => x.id)).toContain(d.id)
    expect((await c.documents.link(d.id, txId)).transaction_ids).toEqual([txId])
    expect((await c.documents.list({ unlinked: true })).data.map((x) => x.id)).not.toContain(d.id)
    expect((await c.documents.unlink(d.id, txId)).transaction_ids).toEqual([])
    const gone = await refused(c.documents.unlink(d.id, txId))
    expect(gone.status).toBe(404)
    const audit = await h.store.db
      .selectFrom('audit_entries')
      .select(['action', 'changes', 'actor'])
      .where('transaction_id', '=', txId)
      .where('action', 'in', ['document_linked', 'document_unlinked'])
      .orderBy('id')
      .execute()
    const mine = audit.filter((r) => r.changes.includes(d.id))
    expect(mine.map((r) => r.action)).toEqual(['document_linked', 'document_unlinked'])
    expect(mine[0].actor).toMatch(/^(key|user):/)
    const events = await h.store.db.selectFrom('events').select(['type']).where('object_id', '=', d.id).orderBy('seq').execute()
    expect(events.map((e) => e.type)).toEqual(['document.added', 'document.linked', 'document.unlinked'])
  })

  it('another company sees none of them and cannot link to them', async () => {
    const d = await add('private.pdf', minimalPdf(`Private ${storeKind} ${kind}`))
    const other = h.client({ apiKey: b.key })
    expect((await other.documents.list()).data).toEqual([])
    expect((await refused(other.documents.get(d.id))).status).toBe(404)
    expect((await refused(other.documents.content(d.id))).status).toBe(404)
    const otherTx = (
      await other.transactions.create({
        bank_account_id: b.accountId,
        transaction_date: '2026-03-02',
        description: 'Theirs',
        amount: '-1.00',
      })
    ).id
    expect((await refused(c.documents.link(d.id, otherTx))).status).toBe(404)
    // The same bytes in another company are a document of its own.
    const bytes = Buffer.from((await c.documents.content(d.id)).bytes)
    const theirs = await other.documents.add({ file_name: 'p.pdf', content_base64: bytes.toString('base64') })
    expect(theirs.created).toBe(true)
    expect(theirs.id).not.toBe(d.id)
  })
})
