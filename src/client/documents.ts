/** The typed calls of documents (client.ts holds one instance as `client.documents`; docs/documents.md). */
import { documentsPaths } from '../api/paths.js'
import type { documentsApi } from '../api/routes/documents.js'
import type { DocumentUploadJson } from '../domain/documents/schemas.js'
import { fillPath, type RouteInput, routeCalls, type Sender } from './route-call.js'

export function documentCalls(c: Sender) {
  const call = routeCalls<typeof documentsApi>(c, documentsPaths)
  return {
    /** Add a file (JSON, the file in base64: the embedded transport carries text bodies). */
    add: (body: DocumentUploadJson) => call('add', { body }).then((r) => r.data),
    list: (query: NonNullable<RouteInput<typeof documentsApi.list>['query']> = {}) => call('list', { query }),
    /** Every page of the documents (memory holds one page). */
    pages: (query: NonNullable<RouteInput<typeof documentsApi.list>['query']> = {}) => call.pages('list', { query }),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    /** The bytes, decoded from the base64 answer (the route declares the bytes; `as=base64` is the JSON the CLI reads). */
    content: async (id: string) => {
      const d = (
        await c.request<{ file_name: string; media_type: string; content_base64: string }>(
          'GET',
          fillPath(documentsPaths.content.path, { id }),
          {
            query: { as: 'base64' },
          },
        )
      ).data
      return { fileName: d.file_name, mediaType: d.media_type, bytes: new Uint8Array(Buffer.from(d.content_base64, 'base64')) }
    },
    link: (id: string, transactionId: string) =>
      call('link', { params: { id }, body: { transaction_id: transactionId } }).then((r) => r.data),
    unlink: (id: string, transactionId: string) => call('unlink', { params: { id, transaction_id: transactionId } }).then((r) => r.data),
    /** One document's candidate transactions, best first. */
    suggestion: (id: string) => call('suggestion', { params: { id } }).then((r) => r.data),
    /** Every unlinked document's candidates. */
    suggestions: (query: { limit?: number } = {}) => call('suggestions', { query }).then((r) => r.data),
    /** Link what matches one transaction alone (every unlinked document, or the one given). */
    applySuggestions: (documentId?: string) =>
      call('applySuggestions', { body: documentId ? { document_id: documentId } : {} }).then((r) => r.data),
  }
}
