/** The typed calls of transactions (client.ts holds them as `client.transactions`; docs/api.md section 4). */
import { transactionWritesPaths, transactionsPaths } from '../api/paths.js'
import type { transactionWritesApi } from '../api/routes/transaction-writes.js'
import type { transactionsApi } from '../api/routes/transactions.js'
import type {
  BatchCreateResponse,
  BulkDeleteRequest,
  BulkDeleteResponse,
  BulkUpdateRequest,
  BulkUpdateResponse,
  CreateTransactionRequest,
  Transaction,
  UpdateTransactionRequest,
} from '../domain/schemas.js'
import { doneOf, outcome } from './approvals.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

/** Query of GET /transactions, as the client sends it: the filters tx-filters.ts builds from flags, which the service validates. */
export type TransactionQuery = Record<string, string | number | boolean | undefined>

type ListQuery = RouteInput<typeof transactionsApi.list>['query']

export function transactionCalls(c: Sender) {
  const call = routeCalls<typeof transactionsApi>(c, transactionsPaths)
  const write = routeCalls<typeof transactionWritesApi>(c, transactionWritesPaths)
  const createAnswer = (body: CreateTransactionRequest, o: { idempotencyKey?: string } = {}) =>
    write('create', { body, headers: o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : undefined })
  const requestUpdate = (id: string, body: UpdateTransactionRequest) =>
    write('update', { params: { id }, body }).then((r) => outcome<Transaction>(r))
  /** A bulk update or delete, or over a bulk approval policy's threshold its proposal. */
  const requestBulkUpdate = (body: BulkUpdateRequest) => write('bulkUpdate', { body }).then((r) => outcome<BulkUpdateResponse>(r))
  const requestBulkDelete = (body: BulkDeleteRequest) => write('bulkDelete', { body }).then((r) => outcome<BulkDeleteResponse>(r))
  return {
    create: (body: CreateTransactionRequest, o: { idempotencyKey?: string } = {}) => createAnswer(body, o).then((r) => r.data),
    /** The whole answer of a create, its headers too (`idempotent-replayed`: the import counts a replay as a duplicate). */
    createAnswer,
    list: (q: TransactionQuery = {}) => call('list', { query: q as ListQuery }),
    /** Every page of a list (memory holds one page). */
    pages: (q: TransactionQuery = {}) => call.pages('list', { query: q as ListQuery }),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    update: (id: string, body: UpdateTransactionRequest) => requestUpdate(id, body).then(doneOf),
    requestUpdate,
    delete: (id: string) => write('delete', { params: { id } }).then((r) => r.data),
    bulkUpdate: (body: BulkUpdateRequest) => requestBulkUpdate(body).then(doneOf),
    bulkDelete: (body: BulkDeleteRequest) => requestBulkDelete(body).then(doneOf),
    requestBulkUpdate,
    requestBulkDelete,
    batch: (transactions: CreateTransactionRequest[], o: { idempotencyKey?: string; importBatch?: string } = {}) =>
      write('batch', {
        body: { transactions },
        headers:
          o.idempotencyKey || o.importBatch
            ? {
                ...(o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {}),
                ...(o.importBatch ? { 'x-import-batch': o.importBatch } : {}),
              }
            : undefined,
        // Without `Prefer: return=minimal` the answer is the whole shape.
      }).then((r) => r.data as BatchCreateResponse),
    /**
     * A batch answered with each created row's index and id (`Prefer: return=minimal`), not the
     * whole transactions: for imports, which need no more. A service that ignores the preference
     * answers the whole shape, which has the same `created[].id`.
     */
    batchMinimal: (
      transactions: CreateTransactionRequest[],
      o: { bulkRows?: number; bulkEnd?: boolean; matchStatementLines?: boolean; importBatch?: string } = {},
    ) =>
      write('batch', {
        body: o.matchStatementLines ? { transactions, match_statement_lines: true } : { transactions },
        // `bulk-load=N`: the rows of the whole import, a hint that lets the service prepare for them;
        // `bulk-load-end`: the load's last batch (the service finishes what it prepared before it answers).
        headers: {
          prefer: ['return=minimal', ...(o.bulkRows ? [`bulk-load=${o.bulkRows}`] : []), ...(o.bulkEnd ? ['bulk-load-end'] : [])].join(
            ', ',
          ),
          ...(o.importBatch ? { 'x-import-batch': o.importBatch } : {}),
        },
      }).then((r) => r.data),
  }
}
