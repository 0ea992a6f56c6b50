/**
 * A PDF's text and its embedded e-invoice, through unpdf (PDF.js built for servers, pure
 * JavaScript: no native build, no network, no fonts fetched). Loaded on first use: most commands
 * never read a PDF. A PDF it cannot read gives no text rather than an error: the file is kept as it
 * is, and the file's name is still read.
 */
import { type DocumentFields, mergeFields, readInvoiceXml, readText } from './read-fields.js'

/** Pages read for text: a receipt's or invoice's total is on its first pages. */
const MAX_PAGES = 5

/** The names of a ZUGFeRD / Factur-X / XRechnung invoice embedded in a PDF. */
const INVOICE_ATTACHMENT = /^(factur-x|zugferd-invoice|zugferd|xrechnung)\.xml$|\.xml$/i

export async function readPdf(bytes: Uint8Array, fallbackCurrency: string): Promise<DocumentFields | null> {
  let pdf: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>> | undefined
  try {
    const { getDocumentProxy } = await import('unpdf')
    // PDF.js takes the buffer over: hand it a copy, the caller's bytes are stored afterwards.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, stopAtErrors: false })
    const attached = await embeddedInvoice(pdf)
    const pages: string[] = []
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PAGES); n++) {
      const content = await (await pdf.getPage(n)).getTextContent()
      pages.push(content.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : ' ') : '')).join(''))
    }
    return mergeFields(attached, readText(pages.join('\n'), fallbackCurrency))
  } catch {
    return null
  } finally {
    await pdf?.loadingTask.destroy().catch(() => {})
  }
}

async function embeddedInvoice(pdf: import('unpdf/pdfjs').PDFDocumentProxy): Promise<DocumentFields | null> {
  const files = await pdf.getAttachments().catch(() => null)
  if (!files) return null
  for (const [key, meta] of files) {
    if (!INVOICE_ATTACHMENT.test(meta.filename)) continue
    const content = await pdf.getAttachmentContent(key).catch(() => null)
    const bytes = content instanceof Uint8Array ? content : (content as { content?: Uint8Array } | null)?.content
    const read = bytes ? readInvoiceXml(bytes, 'pdf_xml') : null
    if (read) return read
  }
  return null
}
