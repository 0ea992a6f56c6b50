/** The typed calls of bank statements (client.ts holds one instance as `client.statements`; docs/api.md section 5). */
import { statementsPaths } from '../api/paths.js'
import type { statementsApi } from '../api/routes/statements.js'
import type { ImportBatchDetail } from '../domain/imports/schemas.js'
import type { Statement, StatementUploadJson } from '../domain/statements/schemas.js'
import { AppError } from '../kernel/errors.js'
import type { TransactionQuery } from './transactions.js'
import { fillPath, type RouteInput, routeCalls, type Sender } from './route-call.js'

type ListQuery = NonNullable<RouteInput<typeof statementsApi.list>['query']>
type TxQuery = RouteInput<typeof statementsApi.transactions>['query']

export function statementCalls(c: Sender, sleep: (ms: number) => Promise<void>) {
  const call = routeCalls<typeof statementsApi>(c, statementsPaths)
  const calls = {
    /** Upload a statement file (JSON, the file in base64); answered with the statement pending. */
    upload: (body: StatementUploadJson) => call('upload', { body }).then((r) => r.data as Statement),
    /** `review: true`: the upload waits pending as an import batch (docs/api.md, "Review before it lands"). */
    uploadForReview: (body: StatementUploadJson) =>
      call('upload', { body: { ...body, review: true } }).then((r) => r.data as ImportBatchDetail),
    list: (query: ListQuery = {}) => call('list', { query }),
    /** Every page of the statements (memory holds one page). */
    pages: (query: ListQuery = {}) => call.pages('list', { query }),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    transactions: (id: string, query: TransactionQuery = {}) => call('transactions', { params: { id }, query: query as TxQuery }),
    /** Every page of a statement's transactions (memory holds one page). */
    transactionPages: (id: string, query: TransactionQuery = {}) => call.pages('transactions', { params: { id }, query: query as TxQuery }),
    /** The original file as uploaded, decoded from the base64 answer (404: uploaded before finctl kept it). */
    file: async (id: string) => {
      const d = (
        await c.request<{ file_name: string; sha256: string; content_base64: string }>('GET', fillPath(statementsPaths.file.path, { id }), {
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
