/**
 * Documents are fair between companies (docs/documents.md, "Reading a PDF"), through both
 * transports on both stores: company B's flate bomb (a PDF of some tens of KB whose text inflates
 * to 30 MB) is being read when company A adds a small receipt; A's upload is answered, its fields
 * read, while B's is still under way. Before, one PDF thread read one file at a time, and A waited
 * for the whole of B's. The assertion is the order; how long A waits is a figure of the bench.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flateBomb, textPdf } from '../helpers/document-files.js'
import { createHarness, MATRIX, type Harness, type Tenant } from '../helpers/harness.js'

describe.each(MATRIX)('PDF reads fair between companies over %s on %s', (kind, storeKind) => {
  let h: Harness
  let a: Tenant
  let b: Tenant

  beforeAll(async () => {
    h = await createHarness(kind, storeKind)
    a = await h.tenant('Small receipts')
    b = await h.tenant('Flate bombs')
  })
  afterAll(async () => {
    await h?.close()
  })

  it("A's small PDF is stored, its fields read, while B's flate bomb is still being read", { timeout: 90_000 }, async () => {
    const order: string[] = []
    const add = (t: Tenant, name: string, pdf: Buffer) =>
      h
        .client({ apiKey: t.key })
        .documents.add({ file_name: name, content_base64: pdf.toString('base64'), auto_link: false })
        .then((d) => {
          order.push(name)
          return d
        })
    const bomb = add(b, 'bomb.pdf', flateBomb(30, `Bomb ${kind}`))
    // B's upload reaches the reading first: A's comes once B's is under way.
    await new Promise((r) => setTimeout(r, 300))
    const receipt = await add(a, 'receipt.pdf', textPdf([`Corner Shop ${kind}`, 'Receipt 2026-10-05', 'TOTAL EUR 24.90']))
    expect(receipt.fields).toMatchObject({ merchant: `Corner Shop ${kind}`, amount: 24.9, currency: 'EUR', source: 'pdf_text' })
    expect(order).toEqual(['receipt.pdf'])
    expect((await bomb).fields).toMatchObject({ merchant: expect.stringMatching(/^Bomb/), source: 'pdf_text' })
    expect(order).toEqual(['receipt.pdf', 'bomb.pdf'])
  })
})
