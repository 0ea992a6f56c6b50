/** Schemas of /api-v1/policy and /api-v1/approvals (docs/api.md, "Approvals"; docs/people.md). */
import { z } from '@hono/zod-openapi'
import { APPROVAL_STEPS, PROPOSAL_STATES } from '../../kernel/vocabulary.js'
import { Timestamp } from '../schema-common.js'

export const ApprovalStep = z.enum(APPROVAL_STEPS)

export const PolicyRequest = z
  .object({
    require_approval: z
      .array(ApprovalStep)
      .max(APPROVAL_STEPS.length)
      .openapi({ description: 'the steps that wait for a second person; [] turns the policy off' }),
  })
  .strict()
  .openapi('PolicyRequest')
export type PolicyRequest = z.infer<typeof PolicyRequest>

export const Policy = z
  .object({
    require_approval: z.array(ApprovalStep),
    /** Null while the company never set one (off). */
    updated_by: z.string().nullable(),
    updated_at: Timestamp.nullable(),
  })
  .openapi('Policy')
export type Policy = z.infer<typeof Policy>

export const Proposal = z
  .object({
    id: z.string(),
    kind: ApprovalStep,
    /** The month (reopen), the batch id (revert), `policy`. */
    target: z.string(),
    /** The request as given. */
    request: z.record(z.string(), z.unknown()),
    /** What approving would do, computed when proposed: a reopen's month and its close record, a revert's dry run, the policy before and after. */
    effect: z.record(z.string(), z.unknown()),
    state: z.enum(PROPOSAL_STATES),
    proposed_by: z.string().openapi({ example: 'user:0193…' }),
    proposer_user_id: z.string().nullable(),
    created_at: Timestamp,
    decided_by: z.string().nullable(),
    decided_at: Timestamp.nullable(),
    /** A rejection's reason, or why approving failed. */
    reason: z.string().nullable(),
    /** What the approved step returned (the reopen's record, the revert's result, the policy). */
    result: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi('Proposal')
export type Proposal = z.infer<typeof Proposal>

export const ProposalListQuery = z
  .object({
    state: z
      .enum([...PROPOSAL_STATES, 'all'])
      .optional()
      .openapi({ description: 'pending (the default), approved, rejected, failed or all' }),
    mine: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .openapi({ type: 'string', description: "true: only the caller's own proposals (by user)" }),
  })
  .strict()
export type ProposalListQuery = z.infer<typeof ProposalListQuery>

export const RejectRequest = z
  .object({ reason: z.string().trim().min(1, 'is required').max(500).openapi({ description: 'why the proposal is rejected (audited)' }) })
  .strict()
  .openapi('RejectRequest')
