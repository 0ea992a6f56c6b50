/** The typed calls of import batches and their review (client.ts holds one instance as `client.imports`; docs/api.md, "Imports"). */
import { importReviewsPaths, importsPaths, importsRevertPaths } from '../api/paths.js'
import type { importReviewsApi } from '../api/routes/import-reviews.js'
import type { importsApi } from '../api/routes/imports.js'
import type { importsRevertApi } from '../api/routes/imports-revert.js'
import type { CreateImportRequest, FinishImportRequest } from '../domain/imports/schemas.js'
import type { RevertImportRequest, RevertResult } from '../domain/imports/revert-schemas.js'
import type {
  ApplyResult,
  PendingPageData,
  RemapRequest,
  SetPendingRowRequest,
  StageRowsRequest,
} from '../domain/imports/review-schemas.js'
import { doneOf, outcome } from './approvals.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

export function importCalls(c: Sender) {
  const call = routeCalls<typeof importsApi>(c, importsPaths)
  const review = routeCalls<typeof importReviewsApi>(c, importReviewsPaths)
  const revert = routeCalls<typeof importsRevertApi>(c, importsRevertPaths)
  const requestRevert = (id: string, body: RevertImportRequest = {}) =>
    revert('revert', { params: { id }, body }).then((r) => outcome<RevertResult>(r))
  const requestApply = (id: string) => review('apply', { params: { id } }).then((r) => outcome<ApplyResult>(r))
  return {
    create: (body: Partial<CreateImportRequest> & Pick<CreateImportRequest, 'file_name'>) => call('create', { body }).then((r) => r.data),
    finish: (id: string, body: FinishImportRequest) => call('finish', { params: { id }, body }).then((r) => r.data),
    list: (query: NonNullable<RouteInput<typeof importsApi.list>['query']> = {}) => call('list', { query }),
    /** Every page of the import batches (memory holds one page). */
    pages: (query: NonNullable<RouteInput<typeof importsApi.list>['query']> = {}) => call.pages('list', { query }),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    revert: (id: string, body: RevertImportRequest = {}) => requestRevert(id, body).then(doneOf),
    requestRevert,
    // A review import's rows (docs/api.md, "Review before it lands").
    stage: (id: string, body: StageRowsRequest) => review('stage', { params: { id }, body }).then((r) => r.data),
    pending: (id: string, query: { limit?: number; after?: number } = {}) =>
      review('pending', { params: { id }, query }).then((r) => ({
        data: r.data,
        pagination: r.pagination as unknown as PendingPageData['pagination'],
      })),
    setRow: (id: string, line: number, body: SetPendingRowRequest) => review('setRow', { params: { id, line }, body }).then((r) => r.data),
    apply: (id: string) => requestApply(id).then(doneOf),
    /** The rows landed, or with an agent's key its proposal (docs/agents.md). */
    requestApply,
    putFilePart: (id: string, part: number, content_base64: string) =>
      review('putFilePart', { params: { id, part }, body: { content_base64 } }).then((r) => r.data),
    remap: (id: string, body: RemapRequest) => review('remap', { params: { id }, body }).then((r) => r.data),
    discard: (id: string) => review('discard', { params: { id } }).then((r) => r.data),
  }
}
