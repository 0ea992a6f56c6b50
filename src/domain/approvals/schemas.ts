/** Schemas of /api-v1/policy and /api-v1/approvals (docs/api.md, "Approvals"; docs/people.md). */
import { z } from '@hono/zod-openapi'
import { PROPOSAL_STATES } from '../../kernel/vocabulary.js'
import { Timestamp } from '../schema-common.js'
import { APPROVAL_STEPS, ApprovalStep, bulkStep, keyWriteStep, peopleStep, STEP_LIST, type StepName } from './registry.js'
import type { AnyStep } from './step-types.js'

export { ApprovalStep } from './registry.js'

export const PolicyRequest = z
  .object({
    require_approval: z
      .array(ApprovalStep)
      .max(APPROVAL_STEPS.length)
      .openapi({ description: 'the steps that wait for a second person; [] turns the policy off' }),
    bulk_threshold: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: 'with bulk: a bulk update or delete of more transactions than this is a proposal (required with bulk)' }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.require_approval.includes(bulkStep.name) && v.bulk_threshold === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bulk_threshold'],
        message: 'is required with bulk (the rows a bulk update or delete may touch unapproved)',
      })
  })
  .openapi('PolicyRequest')
export type PolicyRequest = z.infer<typeof PolicyRequest>

export const Policy = z
  .object({
    require_approval: z.array(ApprovalStep),
    /** With bulk: a bulk update or delete of more transactions than this waits; null without bulk. */
    bulk_threshold: z.number().int().nullable(),
    /** Null while the company never set one (off). */
    updated_by: z.string().nullable(),
    updated_at: Timestamp.nullable(),
  })
  .openapi('Policy')
export type Policy = z.infer<typeof Policy>

const ProposalFields = {
  id: z.string(),
  /** The month (reopen), the batch id (revert), the rows' count (bulk; `delete N transactions` for a bulk delete), the key's name (key-write), `policy`; an agent's write in words (`categorize transaction ID`). */
  target: z.string(),
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
}

/** A proposal of one step: its kind, the request as given and the effect approving it would have, computed when proposed. */
const build = <S extends AnyStep>(s: S) =>
  z
    .object({
      ...ProposalFields,
      kind: z.literal(s.name as S['name']),
      request: s.request as S['request'],
      effect: s.effect as S['effect'],
    })
    .openapi(s.title)
type Variant<S extends AnyStep> = ReturnType<typeof build<S>>
const made = new Map<AnyStep, unknown>()
/** One schema a step, whoever asks (the union, a 202 that adds the shown secret to it). */
const variant = <S extends AnyStep>(s: S): Variant<S> => {
  if (!made.has(s)) made.set(s, build(s))
  return made.get(s) as Variant<S>
}
type Variants<T extends readonly AnyStep[]> = { -readonly [I in keyof T]: Variant<T[I]> }

/** The proposals of each step, by their kind (registry.ts). */
export const PROPOSAL_VARIANTS = STEP_LIST.map(variant) as Variants<typeof STEP_LIST>
export const Proposal = z.discriminatedUnion('kind', PROPOSAL_VARIANTS).openapi('Proposal')
export type Proposal = z.infer<typeof Proposal>
export type ProposalOf<K extends StepName> = Extract<Proposal, { kind: K }>

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

/** A key-write proposal (202 of POST /api-keys): the key's secret, shown to the proposer once; it works once approved. */
export const ProposedKey = variant(keyWriteStep)
  .extend({
    key: z
      .string()
      .openapi({ description: 'the full key, shown once, to the proposer only; it authenticates once the proposal is approved' }),
  })
  .openapi('ProposedKey')
export type ProposedKey = z.infer<typeof ProposedKey>

/** An invitation to a role that can approve, held back (202 of POST /users/invitations): its token, shown to the proposer once; it works once approved. */
export const ProposedInvitation = variant(peopleStep)
  .extend({
    token: z
      .string()
      .openapi({ description: 'the invitation token, shown once, to the proposer only; it can be accepted once the proposal is approved' }),
  })
  .openapi('ProposedInvitation')
export type ProposedInvitation = z.infer<typeof ProposedInvitation>

/** A step's answer: done (200) or proposed (202). */
export type Outcome<T> = { done: T } | { proposal: Proposal }
