/** The typed calls of budgets and the budget report (client.ts holds one instance as `client.budgets`; docs/budgets.md). */
import { budgetsPaths, reportsPaths } from '../api/paths.js'
import type { budgetsApi } from '../api/routes/budgets.js'
import type { reportsApi } from '../api/routes/reports.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type Query<K extends keyof typeof budgetsApi> = NonNullable<RouteInput<(typeof budgetsApi)[K]>['query']>

export function budgetCalls(c: Sender) {
  const call = routeCalls<typeof budgetsApi>(c, budgetsPaths)
  const reports = routeCalls<typeof reportsApi>(c, reportsPaths)
  return {
    set: (body: RouteInput<typeof budgetsApi.set>['body']) => call('set', { body }).then((r) => r.data),
    list: (query: Query<'list'> = {}) => call('list', { query }).then((r) => r.data),
    delete: (query: Query<'delete'>) => call('delete', { query }).then((r) => r.data),
    versions: () => call('versions').then((r) => r.data),
    makeCurrent: (name: string) => call('makeCurrent', { params: { name } }).then((r) => r.data),
    /** Budget against actual (GET /reports/budget). */
    report: (query: NonNullable<RouteInput<typeof reportsApi.budget>['query']> = {}) => reports('budget', { query }).then((r) => r.data),
  }
}
