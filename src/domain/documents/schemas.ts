/** Documents (docs/documents.md): receipts, invoices and contracts, stored by content and linked to transactions. */
import { z } from '@hono/zod-openapi'
import { Timestamp, Uuid } from '../schema-common.js'
import { DOCUMENT_KINDS } from './sniff.js'

/** The largest document kept: 20 MiB (a phone's photo of a receipt is a few MiB, a scanned contract rarely more). */
export const MAX_DOCUMENT_FILE = 20 * 1024 * 1024

export const DocumentFields = z
  .object({
    amount: z.number().nullable().openapi({ description: 'the total read (an exact decimal of the currency), null when none was found' }),
    currency: z.string().nullable(),
    date: z.string().nullable().openapi({ example: '2026-10-03' }),
    merchant: z.string().nullable(),
    source: z.string().nullable().openapi({
      description: "where the fields were read, most trusted first: cii, ubl, pdf_xml (a ZUGFeRD PDF's invoice), pdf_text, file_name",
      example: 'pdf_text+file_name',
    }),
  })
  .openapi('DocumentFields')
export type DocumentFields = z.infer<typeof DocumentFields>

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
    fields: DocumentFields.nullable().openapi({ description: 'what was read of it for matching (docs/documents.md); null: not read yet' }),
  })
  .openapi('Document')
export type Document = z.infer<typeof Document>

export const AddedDocument = Document.extend({
  created: z
    .boolean()
    .openapi({ description: 'false: the company had these bytes already (the one document is answered, linked if asked)' }),
  auto_linked: z.string().nullable().openapi({
    description:
      'the transaction it was linked to by itself, its fields matching that one alone (docs/documents.md, "Matching"); null otherwise',
  }),
}).openapi('AddedDocument')
export type AddedDocument = z.infer<typeof AddedDocument>

const fileName = z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters')

export const DocumentUploadJson = z
  .object({
    file_name: fileName,
    content_base64: z.string().min(1, 'is required').openapi({ description: 'the file, base64-encoded (at most 20 MiB decoded)' }),
    transaction_id: Uuid.optional().openapi({ description: 'link it to this transaction' }),
    auto_link: z.boolean().optional().openapi({ description: 'false: never link it by itself (default true)' }),
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
    auto_link: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .openapi({ type: 'boolean' }),
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

export const MatchCandidate = z
  .object({
    transaction_id: z.string(),
    score: z.number().openapi({ description: '0 to 1: amount 0.6, date 0.25, merchant 0.15 (docs/documents.md, "Matching")' }),
    amount_matches: z.boolean(),
    why: z.array(z.string()),
    transaction_date: z.string(),
    amount: z.number(),
    currency_code: z.string(),
    description: z.string(),
  })
  .openapi('MatchCandidate')
export type MatchCandidate = z.infer<typeof MatchCandidate>

export const DocumentSuggestion = z
  .object({
    document_id: z.string(),
    file_name: z.string(),
    fields: DocumentFields,
    candidates: z.array(MatchCandidate).openapi({ description: 'best first, at most 5' }),
    auto_link: z
      .string()
      .nullable()
      .openapi({ description: 'the candidate sure enough to be linked by itself (apply links it); null when none is' }),
  })
  .openapi('DocumentSuggestion')
export type DocumentSuggestion = z.infer<typeof DocumentSuggestion>

export const SuggestionListQuery = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'unlinked documents to match, oldest first (default 100)' }),
  })
  .strict()

export const ApplySuggestionsRequest = z
  .object({
    document_id: z
      .string()
      .optional()
      .openapi({ description: 'only this document (default: every unlinked one, oldest first, up to 500)' }),
  })
  .strict()
  .openapi('ApplySuggestionsRequest')

export const AppliedLinks = z
  .object({
    linked: z.array(z.object({ document_id: z.string(), transaction_id: z.string(), score: z.number() })),
    left: z.number().int().openapi({ description: 'unlinked documents matched and left unlinked (no candidate sure enough)' }),
  })
  .openapi('AppliedLinks')
export type AppliedLinks = z.infer<typeof AppliedLinks>
