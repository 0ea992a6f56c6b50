/**
 * Reading a document's fields by its kind, and their columns (0039): read once, when it is added
 * (or, for one added before, the first time it is matched), so that matching never parses again.
 */
import { minorToNumber } from '../../kernel/money.js'
import { type DocumentFields, mergeFields, NO_FIELDS, readFileName, readInvoiceXml } from './read-fields.js'
import type { DocumentFields as ApiFields } from './schemas.js'
import type { DocumentKind } from './sniff.js'

/** The fields of a document: its e-invoice or PDF first, its file name for what they lack. */
export async function readDocumentFields(
  bytes: Uint8Array,
  kind: DocumentKind,
  fileName: string,
  fallbackCurrency: string,
  /** Whose document: a company's PDFs are read one at a time, beside other companies' (pdf-thread.ts). */
  company = '',
): Promise<DocumentFields> {
  const content =
    kind === 'pdf'
      ? await readPdfFields(bytes, fallbackCurrency, company)
      : kind.endsWith('_invoice') || kind === 'ubl_credit_note'
        ? readInvoiceXml(bytes)
        : null
  return mergeFields(content, readFileName(fileName, fallbackCurrency))
}

/** A PDF is read off the thread that serves requests (pdf-thread.ts); loaded on first use, a chunk of its own in the bundle. */
async function readPdfFields(bytes: Uint8Array, fallbackCurrency: string, company: string): Promise<DocumentFields | null> {
  const { PDF_LIMITS, readPdfOffThread } = await import('./pdf-thread.js')
  return (await readPdfOffThread(bytes, fallbackCurrency, PDF_LIMITS, company)).fields
}

export interface FieldColumns {
  amount_minor: number | null
  currency: string | null
  document_date: string | null
  merchant: string | null
  fields_source: string | null
  fields_read_at: string | null
}

export const FIELD_COLUMNS = ['amount_minor', 'currency', 'document_date', 'merchant', 'fields_source', 'fields_read_at'] as const

export const toColumns = (f: DocumentFields, now: Date): FieldColumns => ({
  amount_minor: f.amount_minor,
  currency: f.currency,
  document_date: f.date,
  merchant: f.merchant === null ? null : f.merchant.slice(0, 200),
  fields_source: f.source,
  fields_read_at: now.toISOString(),
})

/** The stored columns as the fields matching reads; null when the document was never read. */
export function fromColumns(c: FieldColumns): DocumentFields | null {
  if (c.fields_read_at === null) return null
  const amount = c.amount_minor === null || c.currency === null ? null : Number(c.amount_minor)
  return { ...NO_FIELDS, amount_minor: amount, currency: c.currency, date: c.document_date, merchant: c.merchant, source: c.fields_source }
}

/** The fields as the API answers them: the amount a decimal number of its currency, made from its minor units. */
export function apiFields(f: DocumentFields): ApiFields {
  return {
    amount: f.amount_minor === null || f.currency === null ? null : minorToNumber(f.amount_minor, f.currency),
    currency: f.currency,
    date: f.date,
    merchant: f.merchant,
    source: f.source,
  }
}
