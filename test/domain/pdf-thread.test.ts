/**
 * A PDF's fields read on the PDF thread (src/domain/documents/pdf-thread.ts), never on the caller's:
 * the same fields as read-pdf.ts reads, from another thread; a PDF larger than the size limit is
 * not parsed, a read past the time limit is stopped, each saying so, and the next read still works.
 * Reads are fair between companies: one company's flate bomb never holds another's small PDF, and a
 * company's own reads go one at a time.
 * The bundled thread, from the built CLI: test/e2e/docs-match.test.ts.
 */
import { threadId } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { readDocumentFields } from '../../src/domain/documents/fields.js'
import { PDF_LIMITS, readPdfOffThread } from '../../src/domain/documents/pdf-thread.js'
import { readPdf } from '../../src/domain/documents/read-pdf.js'
import { ciiInvoice, flateBomb, textPdf } from '../helpers/document-files.js'

const receipt = textPdf(['Hardware Store Meier', 'Receipt 2026-10-05', 'Hammer 19.90', 'TOTAL EUR 24.90'])
const fields = { amount_minor: 2490, currency: 'EUR', date: '2026-10-05', merchant: 'Hardware Store Meier', source: 'pdf_text' }

describe('the PDF thread', () => {
  it('reads what read-pdf reads, on a thread of its own; documents are read through it', async () => {
    const r = await readPdfOffThread(receipt, 'USD')
    expect(r).toEqual({ fields, stopped: null, thread: expect.any(Number) })
    expect(r.thread).not.toBe(threadId)
    expect(r.fields).toEqual(await readPdf(receipt, 'USD'))
    expect(await readDocumentFields(receipt, 'pdf', 'scan.pdf', 'USD')).toEqual(fields)
    // Several at once: each its own answer.
    const invoice = textPdf(['Letterhead', 'Total 1.00 EUR'], {
      name: 'factur-x.xml',
      bytes: ciiInvoice({ id: 'I-1', amount: '1234.50', currency: 'EUR', date: '2026-10-03', seller: 'ACME Tools GmbH' }),
    })
    const [a, b] = await Promise.all([readPdfOffThread(invoice, 'EUR'), readPdfOffThread(receipt, 'USD')])
    expect(a.fields).toMatchObject({ amount_minor: 123450, source: 'pdf_xml' })
    expect(b.fields).toEqual(fields)
  })

  it('a PDF over the size limit is not parsed; a read over the time limit is stopped; the next read works', async () => {
    expect(await readPdfOffThread(receipt, 'USD', { ...PDF_LIMITS, maxBytes: receipt.length - 1 })).toEqual({
      fields: null,
      stopped: 'size',
      thread: null,
    })
    // The thread may be warm from the test before, and a small receipt then reads within 1 ms: a page of
    // 20,000 lines takes PDF.js far longer than that on any machine.
    const long = textPdf(['Shop', ...Array.from({ length: 20_000 }, (_, i) => `Line ${i} Item 12.50`)], undefined, { deflate: true })
    expect(await readPdfOffThread(long, 'USD', { ...PDF_LIMITS, timeoutMs: 1 })).toEqual({ fields: null, stopped: 'time', thread: null })
    expect((await readPdfOffThread(receipt, 'USD')).fields).toEqual(fields)
  })

  it('a PDF that cannot be read: no fields, not an error', async () => {
    expect(await readPdfOffThread(Buffer.from('%PDF-1.7\nnot really a pdf'), 'EUR')).toMatchObject({ fields: null, stopped: null })
  })

  it("one company's flate bomb never holds another's PDF: A's is read while B's bomb still is; B's next waits for its first", async () => {
    const order: string[] = []
    const read = (name: string, bytes: Buffer, company: string) =>
      readPdfOffThread(bytes, 'EUR', PDF_LIMITS, company).then((r) => {
        order.push(name)
        return r
      })
    const bomb = read('B bomb', flateBomb(30), 'company-b')
    const second = read('B receipt', textPdf(['B Shop', 'TOTAL EUR 3.00']), 'company-b')
    const small = await read('A receipt', receipt, 'company-a')
    expect(small.fields).toEqual(fields)
    // A's upload is done; B's bomb is still being read, and B's second file waits behind it.
    expect(order).toEqual(['A receipt'])
    const [b, b2] = await Promise.all([bomb, second])
    expect(order).toEqual(['A receipt', 'B bomb', 'B receipt'])
    expect(b).toMatchObject({ stopped: null, fields: { merchant: expect.stringMatching(/^Bomb/) } })
    expect(b2.fields).toMatchObject({ merchant: 'B Shop', amount_minor: 300 })
  }, 120_000)
})
