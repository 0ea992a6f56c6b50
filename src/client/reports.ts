/** The typed calls of reports and the audit chain's check (client.ts: `client.reports`, `client.audit`; docs/api.md section 5). */
import { auditPaths, reportsPaths } from '../api/paths.js'
import type { auditApi } from '../api/routes/audit.js'
import type { reportsApi } from '../api/routes/reports.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

type Query<K extends keyof typeof reportsApi> = NonNullable<RouteInput<(typeof reportsApi)[K]>['query']>

export function reportCalls(c: Sender) {
  const call = routeCalls<typeof reportsApi>(c, reportsPaths)
  return {
    cashFlow: (query: Query<'cashFlow'> = {}) => call('cashFlow', { query }).then((r) => r.data),
    summary: (query: Query<'summary'> = {}) => call('summary', { query }).then((r) => r.data),
  }
}

export function auditCalls(c: Sender) {
  const call = routeCalls<typeof auditApi>(c, auditPaths)
  return {
    verify: () => call('verify').then((r) => r.data),
  }
}
