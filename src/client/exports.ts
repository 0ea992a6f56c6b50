/** The typed calls of a period's export reads (client.ts: `client.exports`; docs/api.md section 7). */
import { exportsPaths } from '../api/paths.js'
import type { exportsApi } from '../api/routes/exports.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type Query<K extends keyof typeof exportsApi> = NonNullable<RouteInput<(typeof exportsApi)[K]>['query']>

export function exportCalls(c: Sender) {
  const call = routeCalls<typeof exportsApi>(c, exportsPaths)
  return {
    /** Every page of a period's transactions in date order (GET /exports/transactions). */
    transactions: (query: Query<'transactions'>) => call.pages('transactions', { query }),
    openingBalances: (query: Query<'openingBalances'>) => call('openingBalances', { query }).then((r) => r.data),
    groups: (query: Query<'groups'>) => call('groups', { query }).then((r) => r.data),
    asOf: (query: Query<'asOf'>) => call('asOf', { query }).then((r) => r.data),
  }
}
