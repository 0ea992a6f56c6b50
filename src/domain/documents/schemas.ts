/** Documents (docs/documents.md): receipts, invoices and contracts, stored by content and linked to transactions. */
import { z } from '@hono/zod-openapi'
import { Timestamp, Uuid } from '../schema-common.js'
import { DOCUMENT_KINDS } from './sniff.js'

/** The largest document kept: 20 MiB (a phone's photo of a receipt is a few MiB, a scanned contract rarely more). */
export const MAX_DOCUMENT_FILE = 20 * 1024 * 1024

export const Document = z
  .object({
    id: z.string(),
    sha256: z.string().openapi({ description: 'SHA-256 of the bytes, hex: the same file is one document' }),
    size: z.number().int(),
    media_type: z.string().openapi({ example: 'application/pdf' }),
    kind: z.enum(DOCUMENT_KINDS).openapi({ description: 'what the bytes are (never told by the name)' }),
    file_name: z.string().openapi({ description: 'the name it was first uploaded under' }),
    created_by: z.string(),
    created_at: Timestamp,
    transaction_ids: z.array(z.string()),
  })
  .openapi('Document')
export type Document = z.infer<typeof Document>

export const AddedDocument = Document.extend({
  created: z
    .boolean()
    .openapi({ description: 'false: the company had these bytes already (the one document is answered, linked if asked)' }),
}).openapi('AddedDocument')
export type AddedDocument = z.infer<typeof AddedDocument>

const fileName = z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters')

export const DocumentUploadJson = z
  .object({
    file_name: fileName,
    content_base64: z.string().min(1, 'is required').openapi({ description: 'the file, base64-encoded (at most 20 MiB decoded)' }),
    transaction_id: Uuid.optional().openapi({ description: 'link it to this transaction' }),
  })
  .strict()
  .openapi('DocumentUploadJson')
export type DocumentUploadJson = z.infer<typeof DocumentUploadJson>

export const DocumentUploadForm = z
  .object({
    file: z
      .custom<Blob>((v) => v instanceof Blob, 'must be a file part')
      .openapi({ type: 'string', format: 'binary', description: 'the document (at most 20 MiB)' }),
    file_name: fileName.optional(),
    transaction_id: Uuid.optional(),
  })
  .strict()
  .openapi('DocumentUploadForm')

export const DocumentListQuery = z
  .object({
    transaction_id: Uuid.optional().openapi({ description: 'only documents linked to this transaction' }),
    unlinked: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .openapi({ type: 'boolean', description: 'only documents linked to no transaction' }),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(200).optional(),
  })
  .strict()
export type DocumentListQuery = z.infer<typeof DocumentListQuery>

export const DocumentLinkRequest = z.object({ transaction_id: Uuid }).strict().openapi('DocumentLinkRequest')
export type DocumentLinkRequest = z.infer<typeof DocumentLinkRequest>

export const DocumentLinkParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  transaction_id: z.string().openapi({ param: { name: 'transaction_id', in: 'path' } }),
})
