/**
 * The steps a policy may hold back, as their routes call them: done at once when the policy lets
 * them, else proposed with their effect computed now (docs/people.md, "Approval policies").
 */
import { AppError } from '../../kernel/errors.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import { monthEnd, previousMonth } from '../accounts/period-lock.js'
import { reopenMonth, toRecord } from '../closing/close.js'
import type { CloseRecord } from '../closing/schemas.js'
import { revertImportBatch } from '../imports/revert.js'
import type { RevertImportRequest, RevertResult } from '../imports/revert-schemas.js'
import { needsApproval, normalized, policyOf, requirePolicySetter, writePolicy } from './policy.js'
import { propose } from './proposals.js'
import type { Policy, PolicyRequest, Proposal } from './schemas.js'

/** A step's answer: done (200) or proposed (202). */
export type Outcome<T> = { done: T } | { proposal: Proposal }

export async function requestReopen(store: Store, actor: Actor, month: string, reason: string, now: Date): Promise<Outcome<CloseRecord>> {
  if (!needsApproval(await policyOf(store.db, actor.companyId), 'reopen'))
    return { done: await reopenMonth(store, actor, month, reason, now) }
  const company = await store.db.selectFrom('companies').select('lock_date').where('id', '=', actor.companyId).executeTakeFirst()
  const lock = company?.lock_date ?? null
  if (lock === null || lock < monthEnd(month))
    throw new AppError(
      'conflict',
      `${month} is not closed (${lock ? `the lock date is ${lock}` : 'no month is closed'}): nothing to reopen`,
    )
  const close = await store.db
    .selectFrom('period_closes')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('period', '=', month)
    .where('action', '=', 'close')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const effect = {
    month,
    lock_date: lock,
    lock_date_after: monthEnd(previousMonth(month)),
    close: close ? toRecord(close) : null,
    figures: close?.figures ? (JSON.parse(close.figures) as unknown) : null,
    rows: close?.rows_count == null ? null : Number(close.rows_count),
  }
  return { proposal: await propose(store, actor, 'reopen', month, { month, reason }, effect, now) }
}

export async function requestRevert(
  store: Store,
  actor: Actor,
  id: string,
  req: RevertImportRequest,
  now: Date,
): Promise<Outcome<RevertResult>> {
  if (req.dry_run || !needsApproval(await policyOf(store.db, actor.companyId), 'revert'))
    return { done: await revertImportBatch(store, actor, id, req, now) }
  const dry = await revertImportBatch(store, actor, id, { ...req, dry_run: true }, now)
  if (dry.refused.length)
    throw new AppError(
      'conflict',
      `import batch ${dry.batch.id} cannot be reverted as asked: ${dry.refused.length} rows refused (finctl imports revert ${dry.batch.id} --dry-run names them); nothing was proposed`,
    )
  const request = { batch_id: dry.batch.id, include_edited: req.include_edited === true }
  return { proposal: await propose(store, actor, 'revert', dry.batch.id, request, dry, now) }
}

export async function setPolicy(store: Store, actor: Actor, req: PolicyRequest, now: Date): Promise<Outcome<Policy>> {
  requirePolicySetter(actor)
  const current = await policyOf(store.db, actor.companyId)
  const steps = normalized(req)
  if (!needsApproval(current, 'policy')) return { done: await store.writeTransaction((trx) => writePolicy(trx, actor, steps, now)) }
  const effect = { before: current.require_approval, after: steps }
  return { proposal: await propose(store, actor, 'policy', 'policy', { require_approval: steps }, effect, now) }
}
