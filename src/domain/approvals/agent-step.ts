/**
 * Applying an agent's approved proposal (agent-request.ts proposed it) inside the decision's write
 * transaction, as the approver, exactly as proposed: each checks first that what it was proposed
 * on has not moved, and fails the proposal naming what did (docs/agents.md).
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { createRuleIn } from '../categorization/rules.js'
import { applyReview } from '../imports/review-apply.js'
import { reviewBatch, unusable } from '../imports/review.js'
import { addNoteIn } from '../transactions/notes.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { lockRows, updateIn } from '../transactions/updates.js'
import { pendingRowsOf } from '../imports/pending-summary.js'
import { applyRuleRun } from './rule-step.js'
import type { AgentStepEffect, AgentStepRequest } from './agent-schemas.js'
import type { Applied, Proposed, Replay, StepBehaviour } from './step-types.js'
import { requireRouteScope, requireUnmovedRequest } from './agent-binding.js'

const none = () => {}

/** The effect of the request's action: proposed together (agent-request.ts), so another is no proposal of ours. */
function shown<A extends AgentStepEffect['action']>(effect: AgentStepEffect, action: A): Extract<AgentStepEffect, { action: A }> {
  if (effect.action !== action) throw new AppError('conflict', `the proposal's effect is not of its request's action (${action})`)
  return effect as Extract<AgentStepEffect, { action: A }>
}

/** A review batch's rows land once the decision is committed, in chunks of their own (`after`: review-apply.ts). */
export async function applyAgent(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  p: Proposed<AgentStepRequest, AgentStepEffect>,
  now: Date,
  window: DateWindow,
  replay?: Replay,
): Promise<Applied> {
  const req = p.request
  if (req.action === 'request') {
    const effect = shown(p.effect, req.action)
    await requireUnmovedRequest(store, trx, actor.companyId, req, effect)
    if (!replay) throw new AppError('conflict', `proposal ${p.id} is a request the service replays: approve it through the service`)
    const check = (inner: Kysely<Db>) => requireUnmovedRequest(store, inner, actor.companyId, req, effect)
    const after = async () => {
      const answer = await replay(req, actor, check)
      const body = answer.body as { data?: unknown; error?: { message?: string } } | null
      if (answer.status >= 400)
        throw new AppError('conflict', `${req.method} ${req.path} answered ${answer.status}: ${body?.error?.message ?? 'no message'}`)
      return { action: 'request', status: answer.status, answer: body?.data ?? null }
    }
    return { result: { action: 'request', status: null }, learn: none, after, replayed: true }
  }
  if (req.action === 'update') {
    const effect = shown(p.effect, req.action)
    const r = await updateIn(store, trx, actor, req.transaction_id, req.updates, now, window, { expected: effect.transaction.updated_at })
    return { result: { action: 'update', transaction: r.after, changed: Object.keys(r.changes) }, learn: r.learn }
  }
  if (req.action === 'note') {
    const [row] = await lockRows(store, trx, actor.companyId, [req.transaction_id])
    if (!row) throw new AppError('not_found', `transaction ${req.transaction_id} is gone since the note was proposed`)
    if (row.updated_at !== shown(p.effect, req.action).transaction.updated_at)
      throw new AppError('conflict', `transaction ${row.id} changed since the note was proposed (updated ${row.updated_at})`)
    const note = await addNoteIn(store, trx, actor, row.id, req.text, now, { id: p.id, proposed_by: p.proposed_by })
    return { result: { action: 'note', note }, learn: none }
  }
  if (req.action === 'rule') {
    const rule = await createRuleIn(store, trx, actor, req.rule, now)
    if (!req.apply) return { result: { action: 'rule', rule }, learn: none }
    const run = { action: 'rules' as const, rule_id: rule.id, since: req.since, only_empty: req.only_empty }
    const applied = await applyRuleRun(store, trx, actor, run, shown(p.effect, req.action).versions, now)
    return { result: { action: 'rule', rule, run: applied.result }, learn: applied.learn }
  }
  // A review batch: bound to its pending rows as they were shown; its rows land once the decision is
  // committed, exactly once by their import_ref (review-apply.ts), as `imports apply` lands them.
  const b = await reviewBatch(trx, actor.companyId, req.batch_id)
  const bad = unusable(b, now)
  if (bad) throw bad
  const account = await findBankAccount(store, actor.companyId, b.bank_account_id ?? '', trx)
  const pending = await pendingRowsOf(trx, b.id, account.currency_code)
  const effect = shown(p.effect, req.action)
  const same = pending.versions.sha256 === effect.versions.sha256 && pending.versions.rows === effect.versions.rows
  if (!same)
    throw new AppError(
      'conflict',
      `the pending rows of import batch ${b.id} changed since the import was proposed (${pending.versions.rows} rows now, ${effect.versions.rows} shown)`,
    )
  return {
    result: { action: 'import', batch_id: b.id, rows: pending.versions.rows },
    learn: none,
    after: () => applyReview(store, actor, b.id, now, window),
  }
}

export const agent: StepBehaviour<AgentStepRequest, AgentStepEffect> = {
  apply: ({ store, trx, actor, now, window, replay }, p) => applyAgent(store, trx, actor, p, now, window, replay),
  // A replayed request goes through its route as the approver: they hold one of its scopes.
  approve: async (_store, actor, p) => {
    if (p.request.action === 'request') requireRouteScope(actor, p.request)
  },
}
