/**
 * Approval policies and proposals (docs/api.md, "Approvals"; docs/people.md): the company's policy
 * (`users` to set), the proposals waiting, and approving or rejecting one.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { policyOf } from '../../domain/approvals/policy.js'
import { approveProposal, getProposal, listProposals, rejectProposal } from '../../domain/approvals/proposals.js'
import { type ApprovalStep, Policy, PolicyRequest, Proposal, ProposalListQuery, RejectRequest } from '../../domain/approvals/schemas.js'
import { setPolicy } from '../../domain/approvals/steps.js'
import { envelope, IdParam } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { doneOrProposed, PROPOSED } from '../proposed.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { approvalsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const approvalsApi = {
  policy: createRoute({
    ...approvalsPaths.policy,
    summary: "The company's approval policy: the steps that wait for a second person (none until set)",
    security: accepts('read', 'users'),
    responses: { 200: ok(envelope(Policy)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  setPolicy: createRoute({
    ...approvalsPaths.setPolicy,
    summary: 'Set the approval policy (a login with users: the owner); once any step needs approval, a change is a proposal (202)',
    security: accepts('users'),
    request: { body: jsonBody(PolicyRequest) },
    responses: { 200: ok(envelope(Policy)), 202: PROPOSED, 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  list: createRoute({
    ...approvalsPaths.list,
    summary: 'Proposals: those waiting (state=pending, the default), or of a state; mine=true: the caller’s own',
    security: accepts('read'),
    request: { query: ProposalListQuery },
    responses: { 200: ok(envelope(z.array(Proposal))), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...approvalsPaths.get,
    summary: 'A proposal: its request, its effect computed when proposed, its state and decision',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Proposal)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  approve: createRoute({
    ...approvalsPaths.approve,
    summary:
      'Approve a proposal and apply its step as proposed (another user than the proposer, with the step’s scope). 409 when decided already, or when the data moved (the proposal is then failed)',
    security: accepts('write', 'close', 'users'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Proposal)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404], 409: ERRORS[409] },
  }),
  reject: createRoute({
    ...approvalsPaths.reject,
    summary: 'Reject a proposal with a reason (the step’s approvers, or the proposer withdrawing it)',
    security: accepts('write', 'close', 'users'),
    request: { params: IdParam, body: jsonBody(RejectRequest) },
    responses: {
      200: ok(envelope(Proposal)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
}

export function policyRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(approvalsApi.policy, async (c) =>
      c.json({ success: true as const, data: await policyOf<ApprovalStep>(store.db, c.get('actor').companyId) }, 200),
    )
    .openapi(approvalsApi.setPolicy, async (c) => {
      const r = await setPolicy(store, c.get('actor'), c.req.valid('json'), now())
      return doneOrProposed(c, r)
    })
}

export function approvalRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(approvalsApi.list, async (c) =>
      c.json({ success: true as const, data: await listProposals(store, c.get('actor'), c.req.valid('query')) }, 200),
    )
    .openapi(approvalsApi.get, async (c) =>
      c.json({ success: true as const, data: await getProposal(store.db, c.get('actor').companyId, c.req.valid('param').id) }, 200),
    )
    .openapi(approvalsApi.approve, async (c) =>
      c.json(
        {
          success: true as const,
          data: await approveProposal(store, c.get('actor'), c.req.valid('param').id, now(), deps.dateWindow, deps.replay),
        },
        200,
      ),
    )
    .openapi(approvalsApi.reject, async (c) =>
      c.json(
        {
          success: true as const,
          data: await rejectProposal(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json').reason, now()),
        },
        200,
      ),
    )
}
