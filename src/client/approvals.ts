/** The client's calls of approval policies and proposals (docs/api.md, "Approvals"), and a step's outcome. */
import { approvalsPaths } from '../api/paths.js'
import type { approvalsApi } from '../api/routes/approvals.js'
import type { Policy, PolicyRequest, Proposal } from '../domain/approvals/schemas.js'
import { AppError } from '../kernel/errors.js'
import type { ApiResult } from './request.js'
import { routeCalls, type Sender } from './route-call.js'

/** A step a policy may hold back: done (200), or a proposal waiting for approval (202). */
export type Outcome<T, P extends Proposal = Proposal> = { done: T; proposal?: undefined } | { done?: undefined; proposal: P }

export function outcome<T, P extends Proposal = Proposal>(r: ApiResult<T | P>): Outcome<T, P> {
  return r.status === 202 ? { proposal: r.data as P } : { done: r.data as T }
}

/** The step's answer when the caller expects it done: a proposal is said, not taken for the result. */
export function doneOf<T>(o: Outcome<T, Proposal>): T {
  if (o.proposal) throw new AppError('conflict', `proposal ${o.proposal.id} waits for approval (finctl approvals show ${o.proposal.id})`)
  return o.done as T
}

export function approvalCalls(c: Sender) {
  const call = routeCalls<typeof approvalsApi>(c, approvalsPaths)
  return {
    list: (q: { state?: string; mine?: boolean } = {}) =>
      call('list', { query: { state: q.state, mine: q.mine ? 'true' : undefined } }).then((r) => r.data),
    get: (id: string) => call('get', { params: { id } }).then((r) => r.data),
    approve: (id: string) => call('approve', { auth: 'admin', params: { id } }).then((r) => r.data),
    reject: (id: string, reason: string) => call('reject', { auth: 'admin', params: { id }, body: { reason } }).then((r) => r.data),
  }
}

export function policyCalls(c: Sender) {
  const call = routeCalls<typeof approvalsApi>(c, approvalsPaths)
  return {
    get: () => call('policy').then((r) => r.data),
    set: (body: PolicyRequest) => call('setPolicy', { auth: 'admin', body }).then((r) => outcome<Policy>(r)),
  }
}
