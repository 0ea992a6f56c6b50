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

/**
 * Any other write of an agent's (agent-binding.ts): the request as it came, replayed as the approver
 * once approved. `accepts`: the scopes its route takes, one of which the approver holds.
 */
export const AskedRequest = z.object({
  method: z.string(),
  route: z.string(),
  path: z.string(),
  /** The query string, with its `?`, or empty. */
  query: z.string(),
  content_type: z.string().nullable(),
  body: z.union([z.object({ json: z.unknown() }), z.object({ base64: z.string(), bytes: z.number().int() })]).nullable(),
  accepts: z.array(z.string()),
})
export type AskedRequest = z.infer<typeof AskedRequest>

/** A row the request names by its path (`/transactions/{id}`), as it stood: its version binds the proposal. */
export const NamedRow = z.object({
  resource: z.string(),
  id: z.string(),
  /** SHA-256 of the whole stored row, or `absent`. */
  version: z.string(),
  /** The row as an approver reads it (no secret's hash), or null when there is none yet. */
  row: z.record(z.string(), z.unknown()).nullable(),
})

export const AgentStepRequest = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), transaction_id: z.string(), updates: UpdateTransactionRequest, ...Asked }),
  z.object({ action: z.literal('note'), transaction_id: z.string(), text: z.string(), ...Asked }),
  z.object({ action: z.literal('rule'), rule: Rule, ...Window, ...Asked }),
  z.object({ action: z.literal('import'), batch_id: z.string(), ...Asked }),
  z.object({ action: z.literal('request'), ...AskedRequest.shape, ...Asked }),
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
  z.object({
    action: z.literal('request'),
    route: z.string(),
    named: z.array(NamedRow),
    /** A change computed from the books (a bulk change, a run of rules): bound to the last entry of the books' audit, null otherwise. */
    books: z.object({ audit_id: z.number().int() }).nullable(),
  }),
])
export type AgentStepEffect = z.infer<typeof AgentStepEffect>
