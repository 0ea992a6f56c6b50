/** The typed calls of bank accounts (client.ts holds them as `client.accounts`; docs/api.md section 3). */
import { bankAccountsPaths } from '../api/paths.js'
import type { bankAccountsApi } from '../api/routes/bank-accounts.js'
import type { CreateBankAccountRequest, UpdateBankAccountRequest } from '../domain/schemas.js'
import type { TransactionQuery } from './transactions.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

export function accountCalls(c: Sender) {
  const call = routeCalls<typeof bankAccountsApi>(c, bankAccountsPaths)
  return {
    list: (query: NonNullable<RouteInput<typeof bankAccountsApi.list>['query']> = {}) => call('list', { query }),
    create: (body: CreateBankAccountRequest) => call('create', { body }).then((r) => r.data),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    update: (id: string, body: UpdateBankAccountRequest) => call('update', { params: { id }, body }).then((r) => r.data),
    delete: (id: string) => call('delete', { params: { id } }).then((r) => r.data),
    /** The filters of GET /transactions, as the command builds them (tx-filters.ts); the service validates them. */
    transactions: (id: string, q: TransactionQuery = {}) =>
      call('transactions', { params: { id }, query: q as RouteInput<typeof bankAccountsApi.transactions>['query'] }),
    /** Every page of an account's transactions (memory holds one page). */
    transactionPages: (id: string, q: TransactionQuery = {}) =>
      call.pages('transactions', { params: { id }, query: q as RouteInput<typeof bankAccountsApi.transactions>['query'] }),
  }
}
