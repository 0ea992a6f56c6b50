/**
 * What a document is, told by its bytes and never by its name: a receipt photographed as .pdf is
 * still a JPEG, and a text file named invoice.pdf is refused. XML is kept only as an e-invoice
 * (UBL Invoice or CreditNote, CII CrossIndustryInvoice as in ZUGFeRD / Factur-X).
 */
export const DOCUMENT_KINDS = ['pdf', 'png', 'jpeg', 'heic', 'ubl_invoice', 'ubl_credit_note', 'cii_invoice'] as const
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

export const MEDIA_TYPES: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  heic: 'image/heic',
  ubl_invoice: 'application/xml',
  ubl_credit_note: 'application/xml',
  cii_invoice: 'application/xml',
}

export type Sniffed = { kind: DocumentKind } | { kind: null; looksLike: string }

const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:'
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100'
const HEIC_BRANDS = new Set(['heic', 'heix', 'mif1'])

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((x, i) => b[at + i] === x)
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))

export function sniff(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { kind: null, looksLike: 'an empty file' }
  if (ascii(bytes, 0, 5) === '%PDF-') return { kind: 'pdf' }
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'png' }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'jpeg' }
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12)
    if (HEIC_BRANDS.has(brand)) return { kind: 'heic' }
    return { kind: null, looksLike: `an ISO media file of brand ${JSON.stringify(brand)} (a video or another image format)` }
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return { kind: null, looksLike: 'a ZIP archive (or an Office document)' }
  if (ascii(bytes, 0, 4) === 'GIF8') return { kind: null, looksLike: 'a GIF image' }
  const text = asText(bytes)
  if (text === undefined)
    return { kind: null, looksLike: notUtf8Text(bytes) ?? `binary data (it starts with bytes ${hex(bytes.subarray(0, 8))})` }
  const root = xmlRoot(text)
  if (root === undefined) return { kind: null, looksLike: 'plain text' }
  if (root === null) return { kind: null, looksLike: 'XML whose root element cannot be read' }
  if (root.local === 'Invoice' && root.ns === `${UBL}Invoice-2`) return { kind: 'ubl_invoice' }
  if (root.local === 'CreditNote' && root.ns === `${UBL}CreditNote-2`) return { kind: 'ubl_credit_note' }
  if (root.local === 'CrossIndustryInvoice' && root.ns === CII) return { kind: 'cii_invoice' }
  return {
    kind: null,
    looksLike: `XML whose root is <${root.name}>${root.ns ? ` in ${root.ns}` : ''}, not a UBL Invoice or CreditNote nor a CII CrossIndustryInvoice`,
  }
}

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ')

/** The start of the file as text, or undefined when it is not UTF-8 text (a control byte, an invalid sequence). */
function asText(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 64 * 1024)
  // A control byte other than tab, line feed, form feed, carriage return: not text.
  if (head.some((b) => b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x0b)) return undefined
  let text: string
  try {
    // A sequence cut at the end of the head is not an error: `stream` keeps it pending.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length })
  } catch {
    return undefined
  }
  return text.replace(/^\uFEFF/, '')
}

/** Text that is not UTF-8: UTF-16 by its byte order mark, or a legacy 8-bit encoding (no control bytes). */
function notUtf8Text(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return 'text in UTF-16'
  const head = bytes.subarray(0, 64 * 1024)
  if (head.some((b) => b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x0b || b === 0x7f)) return undefined
  return 'text in an 8-bit encoding (not UTF-8: Latin-1 or Windows-1252, say)'
}

/**
 * The root element of an XML text: undefined when it is not XML at all, null when its root cannot be
 * read. The prolog (declaration, comments, processing instructions, a DOCTYPE) is skipped.
 */
function xmlRoot(text: string): { name: string; local: string; ns: string | undefined } | null | undefined {
  let s = text.trimStart()
  if (!s.startsWith('<')) return undefined
  for (;;) {
    if (s.startsWith('<?')) s = after(s, '?>')
    else if (s.startsWith('<!--')) s = after(s, '-->')
    else if (s.startsWith('<!')) s = after(s, '>')
    else break
    if (s === '') return null
    s = s.trimStart()
  }
  const m = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)([^>]*)>/.exec(s)
  if (!m) return null
  const name = m[1]
  const colon = name.indexOf(':')
  const prefix = colon < 0 ? '' : name.slice(0, colon)
  const local = colon < 0 ? name : name.slice(colon + 1)
  const attr = prefix ? `xmlns:${prefix}` : 'xmlns'
  const ns = new RegExp(`(?:^|\\s)${attr.replace('.', '\\.')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(m[2])
  return { name, local, ns: ns ? (ns[1] ?? ns[2]) : undefined }
}

const after = (s: string, end: string) => {
  const i = s.indexOf(end)
  return i < 0 ? '' : s.slice(i + end.length)
}
