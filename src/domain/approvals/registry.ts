/**
 * The approval steps (docs/people.md, "Approval policies"), one entry each: its name, when it is
 * held, the scopes that propose and approve it, its request and effect schemas, and its behaviour
 * (applying it, checking its approver), loaded with the first decision of one. The policy's names,
 * the proposal's schema (one variant a step), the approval and the CLI's effect view read this;
 * the functions a route calls propose through an entry (`propose(store, actor, reopenStep, ...)`),
 * so the compiler holds what they build to the entry's schemas. Adding a step: its entry here, in
 * STEP_LIST (and APPROVAL_STEPS when a policy names it; test/domain/approval-registry.test.ts checks
 * both), its behaviour module, and its view in commands/approvals/effect.ts, which the compiler asks for.
 */
import { z } from '@hono/zod-openapi'
import { AgentStepEffect, AgentStepRequest } from './agent-schemas.js'
import {
  BulkStepEffect,
  BulkStepRequest,
  KeyWriteStepEffect,
  KeyWriteStepRequest,
  PeopleStepEffect,
  PeopleStepRequest,
  ReopenStepEffect,
  ReopenStepRequest,
  RevertStepEffect,
  RevertStepRequest,
} from './step-schemas.js'
import type { StepDefinition } from './step-types.js'

export const defineStep = <N extends string, R extends z.ZodType, E extends z.ZodType>(s: StepDefinition<N, R, E>) => s

export const reopenStep = defineStep({
  name: 'reopen',
  title: 'ReopenProposal',
  held: 'listed',
  // Its route takes `close`, or `write` to propose it (docs/people.md); done at once it takes `close` and a login.
  scopes: { approve: 'close', route: ['close', 'write'] },
  request: ReopenStepRequest,
  effect: ReopenStepEffect,
  load: () => import('./reopen-step.js').then((m) => m.reopen),
})

export const revertStep = defineStep({
  name: 'revert',
  title: 'RevertProposal',
  held: 'listed',
  scopes: { approve: 'write', reviewed: true },
  request: RevertStepRequest,
  effect: RevertStepEffect,
  load: () => import('./revert-step.js').then((m) => m.revert),
})

/** A bulk update or delete, or a run of rules, of more rows than the policy's threshold (the policy's one setting of a step). */
export const bulkStep = defineStep({
  name: 'bulk',
  title: 'BulkProposal',
  held: 'listed',
  scopes: { approve: 'write', reviewed: true },
  request: BulkStepRequest,
  effect: BulkStepEffect,
  load: () => import('./bulk-step.js').then((m) => m.bulk),
})

export const keyWriteStep = defineStep({
  name: 'key-write',
  title: 'KeyWriteProposal',
  held: 'listed',
  scopes: { approve: 'api_keys', login: true },
  request: KeyWriteStepRequest,
  effect: KeyWriteStepEffect,
  load: () => import('./key-step.js').then((m) => m.keyWrite),
})

export const peopleStep = defineStep({
  name: 'people',
  title: 'PeopleProposal',
  held: 'implied',
  scopes: { approve: 'users', reviewed: true, login: true },
  request: PeopleStepRequest,
  effect: PeopleStepEffect,
  load: () => import('./people-step.js').then((m) => m.people),
})

/** The steps a policy names, in the order the API and the CLI list them. */
export const APPROVAL_STEPS = [reopenStep.name, revertStep.name, bulkStep.name, keyWriteStep.name, 'policy', peopleStep.name] as const
export const ApprovalStep = z.enum(APPROVAL_STEPS)
export type ApprovalStep = z.infer<typeof ApprovalStep>

const Threshold = z.number().int().nullable()
export const policyStep = defineStep({
  name: 'policy',
  title: 'PolicyProposal',
  held: 'implied',
  scopes: { approve: 'users', login: true },
  request: z.object({ require_approval: z.array(ApprovalStep), bulk_threshold: Threshold }),
  effect: z.object({
    before: z.array(ApprovalStep),
    after: z.array(ApprovalStep),
    bulk_threshold_before: Threshold,
    bulk_threshold_after: Threshold,
  }),
  load: () => import('./policy-step.js').then((m) => m.policy),
})

/** Every write made with an agent's key (docs/agents.md): a proposal whatever the policy, proposed with the scopes its route took. */
export const agentStep = defineStep({
  name: 'agent',
  title: 'AgentProposal',
  held: 'always',
  scopes: { approve: 'write', byRoute: true },
  request: AgentStepRequest,
  effect: AgentStepEffect,
  load: () => import('./agent-step.js').then((m) => m.agent),
})

/** The entries in the order proposals list their kinds. */
export const STEP_LIST = [reopenStep, revertStep, bulkStep, keyWriteStep, policyStep, peopleStep, agentStep] as const
type Entries = typeof STEP_LIST
export type StepName = Entries[number]['name']
export type Step<K extends StepName = StepName> = Extract<Entries[number], { name: K }>
export type StepRequest<K extends StepName> = z.infer<Step<K>['request']>
export type StepEffect<K extends StepName> = z.infer<Step<K>['effect']>

/** The entries by name. */
export const STEPS = Object.fromEntries(STEP_LIST.map((s) => [s.name, s])) as { [K in StepName]: Step<K> }
/** Every kind a proposal may be. */
export const STEP_NAMES = STEP_LIST.map((s) => s.name) as StepName[]
/** Steps held as soon as any is (`policy`, `people`): never set, never stored. */
export const IMPLIED_STEPS: readonly ApprovalStep[] = APPROVAL_STEPS.filter((n) => STEPS[n].held === 'implied')
