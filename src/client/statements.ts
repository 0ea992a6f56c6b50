/** The typed calls of /api-v1/statements (client.ts holds one instance as `client.statements`). */
import type { ImportBatchDetail } from '../domain/imports/schemas.js'
import type { Transaction } from '../domain/schemas.js'
import type { Statement, StatementUploadJson } from '../domain/statements/schemas.js'
import { AppError } from '../kernel/errors.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

const at = (id: string) => `/api-v1/statements/${encodeURIComponent(id)}`

export function statementCalls(c: Requester, sleep: (ms: number) => Promise<void>) {
  const calls = {
    /** Upload a statement file (JSON, the file in base64); answered with the statement pending. */
    upload: (body: StatementUploadJson) => c.request<Statement>('POST', '/api-v1/statements', { body }).then((r) => r.data),
    /** `review: true`: the upload waits pending as an import batch (docs/api.md, "Review before it lands"). */
    uploadForReview: (body: StatementUploadJson) =>
      c.request<ImportBatchDetail>('POST', '/api-v1/statements', { body: { ...body, review: true } }).then((r) => r.data),
    list: (q: { bank_account_id?: string; status?: string; limit?: number; cursor?: string; include_total?: boolean } = {}) =>
      c.request<Statement[]>('GET', '/api-v1/statements', { query: q }),
    get: (id: string) => c.request<Statement>('GET', at(id)).then((r) => r.data),
    transactions: (id: string, q: Record<string, string | number | boolean | undefined> = {}) =>
      c.request<Transaction[]>('GET', `${at(id)}/transactions`, { query: q }),
    /** The original file as uploaded, decoded from the base64 answer (404: uploaded before finctl kept it). */
    file: async (id: string) => {
      const d = (
        await c.request<{ file_name: string; sha256: string; content_base64: string }>('GET', `${at(id)}/file`, {
          query: { as: 'base64' },
        })
      ).data
      return { fileName: d.file_name, sha256: d.sha256, bytes: new Uint8Array(Buffer.from(d.content_base64, 'base64')) }
    },
    /**
     * Poll GET /statements/{id} until the statement is completed or failed (25 ms, doubling to 1 s
     * between polls); `onPoll` sees each state. Throws after `timeoutMs` (default 10 minutes).
     */
    wait: async (id: string, o: { timeoutMs?: number; onPoll?: (s: Statement) => void } = {}): Promise<Statement> => {
      const deadline = Date.now() + (o.timeoutMs ?? 600_000)
      for (let delay = 25; ; delay = Math.min(delay * 2, 1000)) {
        const s = await calls.get(id)
        o.onPoll?.(s)
        if (s.status === 'completed' || s.status === 'failed') return s
        if (Date.now() + delay > deadline)
          throw new AppError('internal_error', `statement ${id} is still ${s.status}: check it later with \`finctl statements get ${id}\``)
        await sleep(delay)
      }
    },
  }
  return calls
}
