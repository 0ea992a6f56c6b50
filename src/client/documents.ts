/** The typed calls of /api-v1/documents (client.ts holds one instance as `client.documents`). */
import type { AddedDocument, AppliedLinks, Document, DocumentSuggestion, DocumentUploadJson } from '../domain/documents/schemas.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

const at = (id: string) => `/api-v1/documents/${encodeURIComponent(id)}`

export function documentCalls(c: Requester) {
  return {
    /** Add a file (JSON, the file in base64: the embedded transport carries text bodies). */
    add: (body: DocumentUploadJson) => c.request<AddedDocument>('POST', '/api-v1/documents', { body }).then((r) => r.data),
    list: (q: { transaction_id?: string; unlinked?: boolean; limit?: number; cursor?: string } = {}) =>
      c.request<Document[]>('GET', '/api-v1/documents', { query: q }),
    get: (id: string) => c.request<Document>('GET', at(id)).then((r) => r.data),
    /** The bytes, decoded from the base64 answer. */
    content: async (id: string) => {
      const d = (
        await c.request<{ file_name: string; media_type: string; content_base64: string }>('GET', `${at(id)}/content`, {
          query: { as: 'base64' },
        })
      ).data
      return { fileName: d.file_name, mediaType: d.media_type, bytes: new Uint8Array(Buffer.from(d.content_base64, 'base64')) }
    },
    link: (id: string, transactionId: string) =>
      c.request<Document>('POST', `${at(id)}/links`, { body: { transaction_id: transactionId } }).then((r) => r.data),
    unlink: (id: string, transactionId: string) =>
      c.request<Document>('DELETE', `${at(id)}/links/${encodeURIComponent(transactionId)}`).then((r) => r.data),
    /** One document's candidate transactions, best first. */
    suggestion: (id: string) => c.request<DocumentSuggestion>('GET', `${at(id)}/suggestions`).then((r) => r.data),
    /** Every unlinked document's candidates. */
    suggestions: (q: { limit?: number } = {}) =>
      c.request<DocumentSuggestion[]>('GET', '/api-v1/documents/suggestions', { query: q }).then((r) => r.data),
    /** Link what matches one transaction alone (every unlinked document, or the one given). */
    applySuggestions: (documentId?: string) =>
      c
        .request<AppliedLinks>('POST', '/api-v1/documents/suggestions/apply', { body: documentId ? { document_id: documentId } : {} })
        .then((r) => r.data),
  }
}
