/**
 * An agent's write as a proposal shows it (docs/agents.md): the request names its `action` (an
 * update, a note, a rule, a review batch's import), the agent and its reason; the effect shows the
 * row or rows it is bound to. agent-request.ts builds them, agent-step.ts applies them.
 */
import { z } from '@hono/zod-openapi'
import { CreateRuleRequest } from '../categorization/rule-schemas.js'
import { UpdateTransactionRequest } from '../schemas.js'
import { FieldChanges, Versions } from './step-schemas.js'

/** The agent, by its key: who proposed, as the approver reads it. */
const Agent = z.object({ key_id: z.string().nullable(), name: z.string().nullable(), actor: z.string() })
const Asked = { reason: z.string().nullable(), agent: Agent }
const Rule = z.object({ ...CreateRuleRequest.shape, name: z.string() })
const Window = { apply: z.boolean(), since: z.string(), only_empty: z.boolean() }

export const AgentStepRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), transaction_id: z.string(), updates: UpdateTransactionRequest, ...Asked }),
  z.object({ action: z.literal('note'), transaction_id: z.string(), text: z.string(), ...Asked }),
  z.object({ action: z.literal('rule'), rule: Rule, ...Window, ...Asked }),
  z.object({ action: z.literal('import'), batch_id: z.string(), ...Asked }),
])
export type AgentStepRequest = z.infer<typeof AgentStepRequest>

/** A transaction as an approver reads it beside the change. */
export const AgentRow = z.object({
  id: z.string(),
  transaction_date: z.string(),
  description: z.string(),
  amount: z.number(),
  currency_code: z.string(),
  category: z.string().nullable(),
  bank_account_id: z.string(),
  updated_at: z.string(),
})

const PendingRow = z.object({
  line: z.number().int(),
  transaction_date: z.string(),
  amount: z.union([z.string(), z.number()]),
  currency_code: z.string(),
  description: z.string(),
})

export const AgentStepEffect = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), transaction: AgentRow, changes: FieldChanges }),
  z.object({ action: z.literal('note'), transaction: AgentRow, note: z.string() }),
  z.object({
    action: z.literal('rule'),
    rule: Rule,
    ...Window,
    matched: z.number().int(),
    would_change: z.number().int(),
    transactions: z.array(AgentRow.extend({ changes: FieldChanges })),
    versions: Versions,
  }),
  z.object({
    action: z.literal('import'),
    batch: z.object({
      id: z.string(),
      file_name: z.string().nullable(),
      bank_account_id: z.string(),
      bank_account: z.string(),
      rejected: z.number().int(),
      expires_at: z.string().nullable(),
    }),
    rows: z.number().int(),
    versions: Versions,
    totals: z.array(z.object({ currency_code: z.string(), rows: z.number().int(), amount: z.number() })),
    first_date: z.string().nullable(),
    last_date: z.string().nullable(),
    transactions: z.array(PendingRow),
  }),
])
export type AgentStepEffect = z.infer<typeof AgentStepEffect>
