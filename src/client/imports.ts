/** The typed calls of /api-v1/imports (client.ts holds one instance as `client.imports`). */
import type { Proposal } from '../domain/approvals/schemas.js'
import type { CreateImportRequest, FinishImportRequest, ImportBatch, ImportBatchDetail } from '../domain/imports/schemas.js'
import type { RevertImportRequest, RevertResult } from '../domain/imports/revert-schemas.js'
import type {
  ApplyResult,
  PendingPageData,
  PendingRow,
  RemapRequest,
  RemapResult,
  SetPendingRowRequest,
  StageRowsRequest,
  StageRowsResponse,
} from '../domain/imports/review-schemas.js'
import { doneOf, outcome } from './approvals.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

export function importCalls(c: Requester) {
  const requestRevert = (id: string, body: RevertImportRequest = {}) =>
    c
      .request<RevertResult | Proposal>('POST', `/api-v1/imports/${encodeURIComponent(id)}/revert`, { body })
      .then((r) => outcome<RevertResult>(r))
  const requestApply = (id: string) =>
    c.request<ApplyResult | Proposal>('POST', `/api-v1/imports/${encodeURIComponent(id)}/apply`).then((r) => outcome<ApplyResult>(r))
  return {
    create: (body: Partial<CreateImportRequest> & Pick<CreateImportRequest, 'file_name'>) =>
      c.request<ImportBatch>('POST', '/api-v1/imports', { body }).then((r) => r.data),
    finish: (id: string, body: FinishImportRequest) =>
      c.request<ImportBatchDetail>('POST', `/api-v1/imports/${encodeURIComponent(id)}/finish`, { body }).then((r) => r.data),
    list: (q: { kind?: string; bank_account_id?: string; limit?: number; cursor?: string } = {}) =>
      c.request<ImportBatch[]>('GET', '/api-v1/imports', { query: q }),
    get: (id: string) => c.request<ImportBatchDetail>('GET', `/api-v1/imports/${encodeURIComponent(id)}`).then((r) => r.data),
    revert: (id: string, body: RevertImportRequest = {}) => requestRevert(id, body).then(doneOf),
    requestRevert,
    // A review import's rows (docs/api.md, "Review before it lands").
    stage: (id: string, body: StageRowsRequest) =>
      c.request<StageRowsResponse>('POST', `/api-v1/imports/${encodeURIComponent(id)}/pending`, { body }).then((r) => r.data),
    pending: (id: string, q: { limit?: number; after?: number } = {}) =>
      c.request<PendingPageData['data']>('GET', `/api-v1/imports/${encodeURIComponent(id)}/pending`, { query: q }).then((r) => ({
        data: r.data,
        pagination: r.pagination as unknown as PendingPageData['pagination'],
      })),
    setRow: (id: string, line: number, body: SetPendingRowRequest) =>
      c.request<PendingRow>('PATCH', `/api-v1/imports/${encodeURIComponent(id)}/pending/${line}`, { body }).then((r) => r.data),
    apply: (id: string) => requestApply(id).then(doneOf),
    /** The rows landed, or with an agent's key its proposal (docs/agents.md). */
    requestApply,
    putFilePart: (id: string, part: number, content_base64: string) =>
      c
        .request<{ part: number; size: number }>('PUT', `/api-v1/imports/${encodeURIComponent(id)}/file/${part}`, {
          body: { content_base64 },
        })
        .then((r) => r.data),
    remap: (id: string, body: RemapRequest) =>
      c.request<RemapResult>('POST', `/api-v1/imports/${encodeURIComponent(id)}/remap`, { body }).then((r) => r.data),
    discard: (id: string) => c.request<ImportBatchDetail>('POST', `/api-v1/imports/${encodeURIComponent(id)}/discard`).then((r) => r.data),
  }
}
