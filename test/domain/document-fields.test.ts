/**
 * What a document says (docs/documents.md, "Matching"): e-invoice fields read exactly (CII and
 * UBL, built here), a PDF's text (PDFs built by test/helpers/document-files.ts), a ZUGFeRD PDF's
 * embedded invoice, the file's name as a fallback; amounts in integer minor units of the currency.
 */
import { describe, expect, it } from 'vitest'
import { readDocumentFields } from '../../src/domain/documents/fields.js'
import { mergeFields, readFileName, readInvoiceXml, readNumber, readText } from '../../src/domain/documents/read-fields.js'
import { readPdf } from '../../src/domain/documents/read-pdf.js'
import { ciiInvoice, textPdf, tinyPng, ublInvoiceOf } from '../helpers/document-files.js'

const acme = { id: 'INV-1', amount: '1234.50', currency: 'EUR', date: '2026-10-03', seller: 'ACME Tools GmbH' }

describe('e-invoice XML', () => {
  it('CII: DuePayableAmount in minor units, its currency, IssueDateTime (format 102), the seller', () => {
    expect(readInvoiceXml(ciiInvoice(acme, { grandTotal: '1300.00' }))).toEqual({
      amount_minor: 123450,
      currency: 'EUR',
      date: '2026-10-03',
      merchant: 'ACME Tools GmbH',
      source: 'cii',
    })
  })

  it('CII: a currency with no minor unit and one with three', () => {
    expect(readInvoiceXml(ciiInvoice({ ...acme, amount: '5000', currency: 'JPY' }))).toMatchObject({ amount_minor: 5000, currency: 'JPY' })
    expect(readInvoiceXml(ciiInvoice({ ...acme, amount: '12.345', currency: 'BHD' }))).toMatchObject({
      amount_minor: 12345,
      currency: 'BHD',
    })
    // More decimals than the currency has: no amount rather than a rounded one.
    expect(readInvoiceXml(ciiInvoice({ ...acme, amount: '12.345', currency: 'EUR' }))).toMatchObject({ amount_minor: null })
  })

  it('UBL Invoice and CreditNote: PayableAmount with currencyID, IssueDate, AccountingSupplierParty', () => {
    const f = { ...acme, amount: '99.90', currency: 'CHF', seller: 'Büro & Co AG' }
    const want = { amount_minor: 9990, currency: 'CHF', date: '2026-10-03', merchant: 'Büro & Co AG', source: 'ubl' }
    expect(readInvoiceXml(ublInvoiceOf(f))).toEqual(want)
    expect(readInvoiceXml(ublInvoiceOf(f, 'CreditNote'))).toEqual(want)
  })

  it('XML that is no invoice, or no XML, gives nothing', () => {
    expect(readInvoiceXml(Buffer.from('<?xml version="1.0"?><html/>'))).toBeNull()
    expect(readInvoiceXml(Buffer.from('<<<'))).toBeNull()
  })
})

describe('numbers and text', () => {
  it('reads the decimal mark as receipts write it, never through a float', () => {
    expect(readNumber('1.234,50', 'EUR')).toBe(123450)
    expect(readNumber('1,234.50', 'USD')).toBe(123450)
    expect(readNumber('119.00', 'EUR')).toBe(11900)
    expect(readNumber('12,5', 'EUR')).toBe(1250)
    expect(readNumber('1.234', 'EUR')).toBe(123400)
    expect(readNumber("1'234.05", 'CHF')).toBe(123405)
    expect(readNumber('0.10', 'EUR')).toBe(10)
    expect(readNumber('5000', 'JPY')).toBe(5000)
  })

  it('a receipt: the largest total (not the subtotal nor the tax), its currency, the dated line, the merchant', () => {
    const f = readText(
      [
        'Café Morgenrot',
        'Hauptstr. 1, 10115 Berlin',
        'Rechnung Nr. 4711',
        'Datum: 03.10.2026',
        'Zwischensumme 10,00',
        'MwSt 19% 1,90',
        'Gesamt 11,90 EUR',
      ].join('\n'),
      'USD',
    )
    expect(f).toEqual({ amount_minor: 1190, currency: 'EUR', date: '2026-10-03', merchant: 'Café Morgenrot', source: 'pdf_text' })
  })

  it('a currency symbol, else the fallback currency', () => {
    expect(readText('Shop\nTotal: £12.99', 'EUR')).toMatchObject({ amount_minor: 1299, currency: 'GBP' })
    expect(readText('Shop\nTotal 12.99', 'EUR')).toMatchObject({ amount_minor: 1299, currency: 'EUR' })
    expect(readText('', 'EUR')).toMatchObject({ source: null })
  })

  it('the file name as people name scans', () => {
    expect(readFileName('2026-10-03_acme_119.00EUR.pdf', 'USD')).toEqual({
      amount_minor: 11900,
      currency: 'EUR',
      date: '2026-10-03',
      merchant: 'acme',
      source: 'file_name',
    })
    expect(readFileName('20261003 Hardware Store 45,90.jpg', 'EUR')).toMatchObject({
      amount_minor: 4590,
      currency: 'EUR',
      merchant: 'Hardware Store',
    })
    expect(readFileName('scan.png', 'EUR')).toMatchObject({ source: null })
    expect(readFileName('receipt-USD-12.pdf', 'EUR')).toMatchObject({ amount_minor: 1200, currency: 'USD' })
  })

  it('merging: each field from the most trusted reading that has it', () => {
    const m = mergeFields(readText('Total 10.00 EUR', 'EUR'), readFileName('2026-01-02_shop_99.00.pdf', 'EUR'))
    expect(m).toEqual({ amount_minor: 1000, currency: 'EUR', date: '2026-01-02', merchant: 'shop', source: 'pdf_text+file_name' })
  })
})

describe('PDFs (unpdf)', () => {
  it("a PDF's text", async () => {
    const pdf = textPdf(['Hardware Store Meier', 'Receipt 2026-10-05', 'Hammer 19.90', 'TOTAL EUR 24.90'])
    expect(await readPdf(pdf, 'USD')).toEqual({
      amount_minor: 2490,
      currency: 'EUR',
      date: '2026-10-05',
      merchant: 'Hardware Store Meier',
      source: 'pdf_text',
    })
  })

  it("a ZUGFeRD / Factur-X PDF: its embedded invoice's fields before its text", async () => {
    const pdf = textPdf(['Some Letterhead', 'Total 1.00 EUR'], { name: 'factur-x.xml', bytes: ciiInvoice(acme) })
    expect(await readPdf(pdf, 'EUR')).toMatchObject({
      amount_minor: 123450,
      currency: 'EUR',
      merchant: 'ACME Tools GmbH',
      source: 'pdf_xml',
    })
  })

  it('a PDF that cannot be read gives nothing, the name still tells', async () => {
    const broken = Buffer.from('%PDF-1.7\nnot really a pdf')
    expect(await readPdf(broken, 'EUR')).toBeNull()
    expect(await readDocumentFields(broken, 'pdf', '2026-10-03_acme_119.00EUR.pdf', 'EUR')).toMatchObject({
      amount_minor: 11900,
      source: 'file_name',
    })
  })

  it('an image: the file name alone', async () => {
    expect(await readDocumentFields(tinyPng(), 'png', '2026-10-03 Taxi 23.40 EUR.png', 'USD')).toEqual({
      amount_minor: 2340,
      currency: 'EUR',
      date: '2026-10-03',
      merchant: 'Taxi',
      source: 'file_name',
    })
  })
})
