/** The client's calls of approval policies and proposals (docs/api.md, "Approvals"), and a step's outcome. */
import type { Policy, PolicyRequest, Proposal } from '../domain/approvals/schemas.js'
import { AppError } from '../kernel/errors.js'
import type { ApiResult, RequestOptions } from './request.js'

type Send = <T>(method: string, path: string, o?: RequestOptions) => Promise<ApiResult<T>>

/** A step a policy may hold back: done (200), or a proposal waiting for approval (202). */
export type Outcome<T, P extends Proposal = Proposal> = { done: T; proposal?: undefined } | { done?: undefined; proposal: P }

export function outcome<T>(r: ApiResult<T | Proposal>): Outcome<T> {
  return r.status === 202 ? { proposal: r.data as Proposal } : { done: r.data as T }
}

/** The step's answer when the caller expects it done: a proposal is said, not taken for the result. */
export function doneOf<T>(o: Outcome<T, Proposal>): T {
  if (o.proposal) throw new AppError('conflict', `proposal ${o.proposal.id} waits for approval (finctl approvals show ${o.proposal.id})`)
  return o.done as T
}

export function approvalCalls(send: Send) {
  const at = (id: string) => `/api-v1/approvals/${encodeURIComponent(id)}`
  return {
    list: (q: { state?: string; mine?: boolean } = {}) =>
      send<Proposal[]>('GET', '/api-v1/approvals', { query: { state: q.state, mine: q.mine ? 'true' : undefined } }).then((r) => r.data),
    get: (id: string) => send<Proposal>('GET', at(id)).then((r) => r.data),
    approve: (id: string) => send<Proposal>('POST', `${at(id)}/approve`, { auth: 'admin' }).then((r) => r.data),
    reject: (id: string, reason: string) =>
      send<Proposal>('POST', `${at(id)}/reject`, { auth: 'admin', body: { reason } }).then((r) => r.data),
  }
}

export function policyCalls(send: Send) {
  return {
    get: () => send<Policy>('GET', '/api-v1/policy').then((r) => r.data),
    set: (body: PolicyRequest) => send<Policy | Proposal>('PUT', '/api-v1/policy', { auth: 'admin', body }).then((r) => outcome<Policy>(r)),
  }
}
