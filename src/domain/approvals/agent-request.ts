/**
 * An agent's writes (docs/agents.md): every write made with an agent's key is a proposal, whatever
 * the policy, its effect computed now and bound to the state it was made against (a row's
 * `updated_at`, the rows a rule would change and how, a review batch's pending rows); agent-step.ts
 * applies it once a person approves it. The agent's stated reason goes with it.
 */
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import type { CreateRuleRequest, RuleRunOptions } from '../categorization/rule-schemas.js'
import { describeConditions } from '../categorization/rule-words.js'
import { normalised } from '../categorization/rules.js'
import { getImportBatch } from '../imports/batches.js'
import { loadReview, unusable } from '../imports/review.js'
import { RowVersions } from '../row-versions.js'
import { pendingRowsOf } from '../imports/pending-summary.js'
import type { Transaction, UpdateTransactionRequest } from '../schemas.js'
import { findTransaction, toTransaction } from '../transaction-rows.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { ruleChanges, runWindow } from '../transactions/rule-runs.js'
import { updateIn } from '../transactions/updates.js'
import { propose } from './proposals.js'
import type { AgentStepEffect, AskedRequest } from './agent-schemas.js'
import { bindingOf } from './agent-binding.js'
import { agentStep } from './registry.js'
import { asChange, versionOf } from './rule-step.js'
import type { Proposal } from './schemas.js'

/** What the agent said and the dates a write may carry: beside every proposal of an agent's. */
export interface AgentAsk {
  reason: string | null
  window: DateWindow
}

/** Rows a rule's effect lists; the versions hold them all. */
export const AGENT_LISTED = 50

const CATEGORY_FIELDS = new Set(['category', 'accounting_category', 'cash_flow_category'])

/** The agent, by its key: who proposed, as the approver reads it. */
export async function agentOf(store: Store, actor: Actor) {
  const key = await store.db
    .selectFrom('api_keys')
    .select(['id', 'name'])
    .where('id', '=', actor.keyId ?? '')
    .where('company_id', '=', actor.companyId)
    .executeTakeFirst()
  return { key_id: actor.keyId ?? null, name: key?.name ?? null, actor: actorId(actor) }
}

/** A transaction as an approver reads it beside the change. */
const rowOf = (t: Transaction) => ({
  id: t.id,
  transaction_date: t.transaction_date,
  description: t.description,
  amount: t.amount,
  currency_code: t.currency_code,
  category: t.category,
  bank_account_id: t.bank_account_id,
  updated_at: t.updated_at,
})

/** PATCH /transactions/{id}: its changes computed by the update itself, nothing written; bound to the row's `updated_at`. */
export async function proposeUpdate(
  store: Store,
  actor: Actor,
  id: string,
  patch: UpdateTransactionRequest,
  now: Date,
  ask: AgentAsk,
): Promise<Proposal> {
  const dry = await store.writeTransaction((trx) => updateIn(store, trx, actor, id, patch, now, ask.window, { dryRun: true }))
  if (Object.keys(dry.changes).length === 0)
    throw new AppError('conflict', `transaction ${dry.before.id} is already as proposed: nothing to propose`)
  const categorizes = Object.keys(patch).every((f) => CATEGORY_FIELDS.has(f))
  const request = {
    action: 'update' as const,
    transaction_id: dry.before.id,
    updates: patch,
    reason: ask.reason,
    agent: await agentOf(store, actor),
  }
  const effect = { action: 'update' as const, transaction: rowOf(dry.before), changes: dry.changes }
  const target = `${categorizes ? 'categorize' : 'update'} transaction ${dry.before.id}`
  return propose(store, actor, agentStep, target, request, effect, now)
}

/** POST /transactions/{id}/notes: the note beside the row as it stands, bound to its `updated_at`. */
export async function proposeNote(store: Store, actor: Actor, id: string, text: string, now: Date, ask: AgentAsk): Promise<Proposal> {
  const t = toTransaction(await findTransaction(store, actor.companyId, id))
  const request = { action: 'note' as const, transaction_id: t.id, text, reason: ask.reason, agent: await agentOf(store, actor) }
  const effect = { action: 'note' as const, transaction: rowOf(t), note: text }
  return propose(store, actor, agentStep, `note on transaction ${t.id}`, request, effect, now)
}

/**
 * POST /categorization-rules: the rule, and with `apply` (the default) every row it would change
 * since `since` (a run of it as `rules apply` makes one), bound to those rows and changes.
 */
export async function proposeRule(
  store: Store,
  actor: Actor,
  input: CreateRuleRequest,
  run: RuleRunOptions & { apply: boolean },
  now: Date,
  ask: AgentAsk,
): Promise<Proposal> {
  const conditions = await normalised(store, store.db, actor.companyId, input.conditions)
  const window = runWindow(run, now)
  const counts = { scanned: 0, matched: 0 }
  const versions = new RowVersions()
  const listed: Extract<AgentStepEffect, { action: 'rule' }>['transactions'] = []
  let rows = 0
  const draft = { draft: { conditions, actions: input.actions } }
  for await (const c of ruleChanges(store, store.db, actor.companyId, draft, window, counts)) {
    rows++
    versions.add('rules', c.row.id, versionOf(c.row.updated_at, c.updates))
    if (listed.length < AGENT_LISTED) listed.push({ ...rowOf(toTransaction(c.row)), changes: asChange(c.changes) })
  }
  const name = input.name ?? describeConditions(conditions)
  const rule = { ...input, name, conditions }
  const request = {
    action: 'rule' as const,
    rule,
    apply: run.apply,
    since: window.since,
    only_empty: window.onlyEmpty,
    reason: ask.reason,
    agent: await agentOf(store, actor),
  }
  const effect = {
    action: 'rule' as const,
    rule,
    apply: run.apply,
    since: window.since,
    only_empty: window.onlyEmpty,
    matched: counts.matched,
    would_change: rows,
    transactions: listed,
    versions: versions.done(),
  }
  const target = `rule "${name}"${run.apply ? `, changing ${rows} transactions` : ''}`
  return propose(store, actor, agentStep, target, request, effect, now)
}

/** POST /imports/{id}/apply: a review batch's rows (a `tx import --review`), proposed as they stand; never applied until approved. */
export async function proposeImport(store: Store, actor: Actor, batchId: string, now: Date, ask: AgentAsk): Promise<Proposal> {
  const b = await loadReview(store, actor.companyId, batchId)
  const bad = unusable(b, now)
  if (bad) throw bad
  if (b.kind !== 'csv' || !b.bank_account_id)
    throw new AppError(
      'forbidden',
      "an agent proposes a CSV's review batch (tx import --review); a statement upload's is a person's to apply",
    )
  const account = await findBankAccount(store, actor.companyId, b.bank_account_id)
  const batch = await getImportBatch(store, actor.companyId, batchId)
  const pending = await pendingRowsOf(store.db, b.id, account.currency_code)
  if (pending.versions.rows === 0) throw new AppError('conflict', `import batch ${b.id} has no pending rows: nothing to propose`)
  const request = { action: 'import' as const, batch_id: b.id, reason: ask.reason, agent: await agentOf(store, actor) }
  const effect = {
    action: 'import' as const,
    batch: {
      id: b.id,
      file_name: batch.file_name,
      bank_account_id: account.id,
      bank_account: account.name,
      rejected: batch.counts.rejected,
      expires_at: b.expires_at,
    },
    rows: pending.versions.rows,
    ...pending,
  }
  return propose(store, actor, agentStep, `import ${pending.versions.rows} rows of ${batch.file_name ?? b.id}`, request, effect, now)
}

/** Any other write of an agent's: kept as it came, bound to what it names; nothing is written but the proposal. */
export async function proposeRequest(store: Store, actor: Actor, asked: AskedRequest, now: Date, ask: AgentAsk): Promise<Proposal> {
  const binding = await bindingOf(store, store.db, actor.companyId, asked)
  const request = { action: 'request' as const, ...asked, reason: ask.reason, agent: await agentOf(store, actor) }
  const effect = { action: 'request' as const, route: asked.route, ...binding }
  return propose(store, actor, agentStep, `${asked.method} ${asked.path}${asked.query}`, request, effect, now)
}
