/**
 * Documents (docs/documents.md, docs/api.md section 5): POST takes the file as multipart/form-data
 * or as JSON with the file in base64 (what the CLI sends: the embedded transport carries text
 * bodies); GET .../content answers the bytes. Scopes: `write` to add or link, `read` to read.
 */
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { envelope, IdParam, listEnvelope } from '../../domain/schemas.js'
import {
  addDocument,
  documentContent,
  getDocument,
  linkDocument,
  listDocuments,
  tooLarge,
  unlinkDocument,
  type DocumentUpload,
} from '../../domain/documents/documents.js'
import { applySuggestions, autoLinkAdded, suggestAll, suggestFor } from '../../domain/documents/suggest.js'
import {
  AddedDocument,
  AppliedLinks,
  ApplySuggestionsRequest,
  Document,
  DocumentSuggestion,
  SuggestionListQuery,
  DocumentLinkParams,
  DocumentLinkRequest,
  DocumentListQuery,
  DocumentUploadForm,
  DocumentUploadJson,
  MAX_DOCUMENT_FILE,
} from '../../domain/documents/schemas.js'
import type { AppDeps, AppEnv } from '../env.js'
import { readUpload } from '../upload.js'
import { DOCUMENT_UPLOAD_PATH } from '../middleware/body-guard.js'
import { ERRORS, fileResponse, jsonBody, ok, router, accepts } from '../openapi.js'
import { documentsPaths, routerPath } from '../paths.js'
import type { RouteConfig } from '@hono/zod-openapi'

const _PATH = DOCUMENT_UPLOAD_PATH
const MAX_BASE64 = Math.ceil(MAX_DOCUMENT_FILE / 3) * 4 + 64 * 1024

const UPLOAD = {
  form: DocumentUploadForm,
  json: DocumentUploadJson,
  unsupported:
    'send the document as multipart/form-data (parts: file, transaction_id) or as JSON (file_name, content_base64, transaction_id)',
  defaultName: 'document',
  maxBytes: MAX_DOCUMENT_FILE,
  tooLarge,
  maxBase64: MAX_BASE64,
}

async function readDocument(c: Context<AppEnv>): Promise<DocumentUpload> {
  const { fileName, bytes, fields } = await readUpload(c, UPLOAD)
  return { fileName, bytes, transactionId: fields.transaction_id, autoLink: fields.auto_link }
}

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const documentsApi = {
  add: {
    ...documentsPaths.add,
    summary:
      'Add a document (PDF, PNG, JPEG, HEIC or an XML e-invoice, told by its bytes; at most 20 MiB): 201 when new, 200 when the company has these bytes already; linked to transaction_id when given, else to the one transaction its fields match sure enough (auto_linked; auto_link=false: never)',
    security: accepts('write'),
    request: {
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: DocumentUploadForm }, 'application/json': { schema: DocumentUploadJson } },
      },
    },
    responses: {
      200: ok(envelope(AddedDocument)),
      201: ok(envelope(AddedDocument)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      413: ERRORS[413],
      415: ERRORS[415],
    },
  } satisfies RouteConfig,
  content: {
    ...documentsPaths.content,
    summary: "The document's bytes, as its media type; with as=base64, JSON (file_name, media_type, content_base64)",
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: { description: 'the bytes' }, 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  } satisfies RouteConfig,
  suggestions: createRoute({
    ...documentsPaths.suggestions,
    summary:
      'The unlinked documents, oldest first, each with the transactions it may prove: scored by amount, date and merchant, best first',
    security: accepts('read'),
    request: { query: SuggestionListQuery },
    responses: { 200: ok(envelope(z.array(DocumentSuggestion))), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  applySuggestions: createRoute({
    ...documentsPaths.applySuggestions,
    summary: 'Link each unlinked document (or the one given) that matches one transaction alone, sure enough (docs/documents.md)',
    security: accepts('write'),
    request: { body: jsonBody(ApplySuggestionsRequest) },
    responses: { 200: ok(envelope(AppliedLinks)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  suggestion: createRoute({
    ...documentsPaths.suggestion,
    summary: "One document's candidate transactions, best first, with each score and why, and the one it would be linked to by itself",
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(DocumentSuggestion)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  list: createRoute({
    ...documentsPaths.list,
    summary: "The company's documents, oldest first; only those of a transaction, or only those linked to none",
    security: accepts('read'),
    request: { query: DocumentListQuery },
    responses: { 200: ok(listEnvelope(Document)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...documentsPaths.get,
    summary: 'One document: what it is and the transactions it is linked to',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Document)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  link: createRoute({
    ...documentsPaths.link,
    summary: 'Link the document to a transaction (audited in its history; nothing when linked already)',
    security: accepts('write'),
    request: { params: IdParam, body: jsonBody(DocumentLinkRequest) },
    responses: { 200: ok(envelope(Document)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  unlink: createRoute({
    ...documentsPaths.unlink,
    summary: 'Unlink the document from a transaction (audited in its history)',
    security: accepts('write'),
    request: { params: DocumentLinkParams },
    responses: { 200: ok(envelope(Document)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function documentRoutes(deps: AppDeps) {
  const { store, now } = deps
  const r = router()
  r.openAPIRegistry.registerPath(documentsApi.add)
  r.post(documentsApi.add.path, async (c) => {
    const up = await readDocument(c)
    const at = now()
    let added = await addDocument(store, c.get('actor'), up, at)
    // Linked to the one transaction it matches, unless a link was asked for or it has one already.
    if (up.autoLink !== false && !up.transactionId) added = await autoLinkAdded(store, c.get('actor'), added, at)
    return c.json({ success: true as const, data: added }, added.created ? 201 : 200)
  })
  r.openAPIRegistry.registerPath(documentsApi.content)
  r.get(routerPath(documentsApi.content.path), async (c) => {
    const d = await documentContent(store, c.get('actor').companyId, c.req.param('id'))
    return fileResponse(c, d.bytes, d.mediaType, { file_name: d.fileName, media_type: d.mediaType })
  })
  return r
    .openapi(documentsApi.suggestions, async (c) => {
      const data = await suggestAll(store, c.get('actor').companyId, c.req.valid('query').limit ?? 100, now())
      return c.json({ success: true as const, data }, 200)
    })
    .openapi(documentsApi.applySuggestions, async (c) => {
      const data = await applySuggestions(store, c.get('actor'), c.req.valid('json').document_id, now())
      return c.json({ success: true as const, data }, 200)
    })
    .openapi(documentsApi.suggestion, async (c) =>
      c.json({ success: true as const, data: await suggestFor(store, c.get('actor').companyId, c.req.valid('param').id, now()) }, 200),
    )
    .openapi(documentsApi.list, async (c) =>
      c.json({ success: true as const, ...(await listDocuments(store, c.get('actor').companyId, c.req.valid('query'))) }, 200),
    )
    .openapi(documentsApi.get, async (c) =>
      c.json({ success: true as const, data: await getDocument(store, c.get('actor').companyId, c.req.valid('param').id) }, 200),
    )
    .openapi(documentsApi.link, async (c) => {
      const d = await linkDocument(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json').transaction_id, now())
      return c.json({ success: true as const, data: d }, 200)
    })
    .openapi(documentsApi.unlink, async (c) => {
      const p = c.req.valid('param')
      return c.json({ success: true as const, data: await unlinkDocument(store, c.get('actor'), p.id, p.transaction_id, now()) }, 200)
    })
}
