/** The typed calls of closing the books (client.ts holds them as `client.close`; docs/closing.md): a login (the owner) before a key, as for key administration. */
import { closePaths } from '../api/paths.js'
import type { closeApi } from '../api/routes/close.js'
import type { CloseExportRequest, CloseRecord, CloseRequest } from '../domain/closing/schemas.js'
import { doneOf, outcome } from './approvals.js'
import { routeCalls, type Sender } from './route-call.js'

export function closeCalls(c: Sender) {
  const call = routeCalls<typeof closeApi>(c, closePaths)
  /** A reopen, or under an approval policy its proposal. */
  const requestReopen = (month: string, reason: string) =>
    call('reopen', { params: { month }, body: { reason }, auth: 'admin' }).then((r) => outcome<CloseRecord>(r))
  return {
    status: (month?: string) => call('status', { query: { month } }).then((r) => r.data),
    month: (month: string, body: CloseRequest) => call('month', { params: { month }, body, auth: 'admin' }).then((r) => r.data),
    reopen: (month: string, reason: string) => requestReopen(month, reason).then(doneOf),
    requestReopen,
    history: () => call('history').then((r) => r.data),
    /** Record an export written for a closed month on its close record. */
    attachExport: (month: string, body: CloseExportRequest) =>
      call('attachExport', { params: { month }, body, auth: 'admin' }).then((r) => r.data),
    verify: (month: string) => call('verify', { params: { month } }).then((r) => r.data),
  }
}
