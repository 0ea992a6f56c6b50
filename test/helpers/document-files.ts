/** Documents built in the tests (no binary fixture): a PDF with text, a PNG, a UBL invoice. */
import { deflateSync } from 'node:zlib'

/** A minimal valid one-page PDF showing `text` (objects, xref offsets and trailer computed here). */
export function minimalPdf(text: string): Buffer {
  return textPdf([text])
}

const pdfString = (t: string) => `(${t.replace(/[()\\]/g, '\\$&')})`

/**
 * A valid one-page PDF with one line of text per entry of `lines` (Helvetica, WinAnsi: Latin-1
 * text), its objects, xref offsets and trailer computed here; with `attach`, a file embedded as a
 * ZUGFeRD / Factur-X PDF carries its invoice (the catalog's EmbeddedFiles name tree and /AF).
 */
export function textPdf(
  lines: readonly string[],
  attach?: { name: string; bytes: Buffer },
  o: { deflate?: boolean; repeat?: number } = {},
): Buffer {
  const shown = lines.map((l, i) => `${i === 0 ? '72 720 Td' : '0 -16 Td'} ${pdfString(l)} Tj`).join('\n')
  // `repeat`: the last line shown so many times more, in place (a flate bomb: flateBomb below).
  const more = o.repeat ? `\n${`${pdfString(lines[lines.length - 1])} Tj\n`.repeat(o.repeat)}` : ''
  const text = `BT /F1 12 Tf\n${shown}${more}\nET`
  // With `deflate`, the page's text compressed (FlateDecode): a PDF small in bytes and long to read.
  const content = o.deflate ? deflateSync(Buffer.from(text, 'latin1')) : Buffer.from(text, 'latin1')
  const names = attach ? ` /Names << /EmbeddedFiles << /Names [${pdfString(attach.name)} 6 0 R] >> >> /AF [6 0 R]` : ''
  const objects: Array<string | Buffer> = [
    `<< /Type /Catalog /Pages 2 0 R${names} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length}${o.deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]
  if (attach) {
    objects.push(
      `<< /Type /Filespec /F ${pdfString(attach.name)} /UF ${pdfString(attach.name)} /EF << /F 7 0 R >> /AFRelationship /Data >>`,
      Buffer.concat([
        Buffer.from(`<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length ${attach.bytes.length} >>\nstream\n`, 'latin1'),
        attach.bytes,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    )
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')]
  let length = parts[0].length
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(length)
    const b = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof o === 'string' ? Buffer.from(o, 'latin1') : o,
      Buffer.from('\nendobj\n'),
    ])
    parts.push(b)
    length += b.length
  })
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`
  parts.push(Buffer.from(xref + trailer, 'latin1'))
  return Buffer.concat(parts)
}

/**
 * A flate bomb: a PDF of some tens of KB whose one page's text inflates to `megabytes` MB of the
 * same operator, which PDF.js takes seconds to read.
 */
export function flateBomb(megabytes: number, first = 'Bomb'): Buffer {
  const op = '(Bomb) Tj\n'
  return textPdf([first, 'Bomb'], undefined, { deflate: true, repeat: Math.floor((megabytes * 1024 * 1024) / op.length) })
}

/** A 1x1 PNG (signature, IHDR, IDAT, IEND), its CRCs computed. */
export function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => {
    let c = 0xffffffff
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(1, 0)
  ihdr.writeUInt32BE(1, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export function ublInvoice(id: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>${id}</cbc:ID>
  <cbc:IssueDate>2026-03-01</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
</Invoice>
`)
}

export interface InvoiceFields {
  id: string
  /** The total due, as the XML writes it ("119.00"). */
  amount: string
  currency: string
  /** YYYY-MM-DD. */
  date: string
  seller: string
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A ZUGFeRD / Factur-X (CII) invoice: the seller, the issue date (format 102) and the totals. */
export function ciiInvoice(f: InvoiceFields, opts: { grandTotal?: string } = {}): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${esc(f.id)}</ram:ID>
    <ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${f.date.replace(/-/g, '')}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>${esc(f.seller)}</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Buyer Co</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${f.currency}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>1.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>1.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${f.currency}">0.19</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${opts.grandTotal ?? f.amount}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${f.amount}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`)
}

/** A UBL 2.1 invoice with its supplier, issue date and payable amount. */
export function ublInvoiceOf(f: InvoiceFields, root: 'Invoice' | 'CreditNote' = 'Invoice'): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>${esc(f.id)}</cbc:ID>
  <cbc:IssueDate>${f.date}</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>${f.currency}</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>${esc(f.seller)}</cbc:Name></cac:PartyName><cac:PartyLegalEntity><cbc:RegistrationName>${esc(f.seller)}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyName><cbc:Name>Buyer Co</cbc:Name></cac:PartyName></cac:Party></cac:AccountingCustomerParty>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${f.currency}">1.00</cbc:LineExtensionAmount>
    <cbc:TaxInclusiveAmount currencyID="${f.currency}">${f.amount}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="${f.currency}">${f.amount}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</${root}>
`)
}
