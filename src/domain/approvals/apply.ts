/**
 * Applying an approved proposal's step inside the decision's write transaction, exactly as proposed:
 * each step checks first that the data it was proposed on has not moved (docs/people.md, "Approval
 * policies"), and fails the proposal with the reason when it has.
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { scopesBeyond, scopesOfRole } from '../../kernel/roles.js'
import type { ApprovalStep } from '../../kernel/vocabulary.js'
import type { ApiKeyRow, Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { insertApiKey, rollIn } from '../api-keys/keys.js'
import { reopenIn } from '../closing/close.js'
import { revertIn } from '../imports/revert.js'
import type { Versions } from '../row-versions.js'
import type { BulkDeleteRequest, BulkUpdateRequest } from '../schemas.js'
import { bulkDeleteIn } from '../transactions/bulk-delete.js'
import { type BulkChange, bulkUpdateIn } from '../transactions/updates.js'
import { requireReopenUnmoved } from './bindings.js'
import { applyPeople, type PeopleRequest } from './people-step.js'
import { policyKey, policyOf, writePolicy } from './policy.js'
import type { Proposal } from './schemas.js'
import type { DateWindow } from '../transactions/plausibility.js'

type Applied = { result: object; learn: () => void; after?: () => Promise<object> }

export async function applyStep(store: Store, trx: Kysely<Db>, actor: Actor, p: Proposal, now: Date, window: DateWindow): Promise<Applied> {
  if (p.kind === 'agent') {
    const { applyAgent } = await import('./agent-step.js')
    return applyAgent(store, trx, actor, p, now, window)
  }
  const req = p.request as { reason?: string; include_edited?: boolean; require_approval?: ApprovalStep[]; bulk_threshold?: number | null }
  // The step's event names the proposal and who proposed it; its actor is the approver.
  const approval = { proposal_id: p.id, proposed_by: p.proposed_by, approved_by: actorId(actor) }
  if (p.kind === 'reopen') {
    await requireReopenUnmoved(store, trx, actor.companyId, p.effect as { month: string })
    return { result: await reopenIn(store, trx, actor, p.target, String(req.reason), now, approval), learn: () => {} }
  }
  if (p.kind === 'revert') {
    // Bound to the batch's rows as they were shown (their versions); a proposal made before that binding has none.
    const expected = (p.effect as { versions?: Versions }).versions
    return revertIn(store, trx, actor, p.target, req.include_edited === true, now, { ...approval, expected })
  }
  if (p.kind === 'bulk') {
    const action = (p.request as { action?: string }).action
    if (action === 'rules') {
      const { applyRuleRun } = await import('./rule-step.js')
      return applyRuleRun(
        store,
        trx,
        actor,
        p.request as Parameters<typeof applyRuleRun>[3],
        (p.effect as { versions: Versions }).versions,
        now,
      )
    }
    const rows = (p.effect as { transactions?: BulkChange[] }).transactions ?? []
    const expected = new Map(rows.map((r) => [r.id, r.updated_at]))
    // A bulk delete's request says so (`action`); a bulk update's has its `updates`.
    if (action === 'delete') {
      const { result, learn } = await bulkDeleteIn(store, trx, actor, p.request as BulkDeleteRequest, now, { expected })
      return { result: { deleted: result.deleted, transaction_ids: result.transactions.map((t) => t.id) }, learn }
    }
    const { result, learn } = await bulkUpdateIn(store, trx, actor, p.request as BulkUpdateRequest, now, { expected })
    return { result: { updated: result.updated, transaction_ids: result.transactions.map((t) => t.id) }, learn }
  }
  if (p.kind === 'people') {
    // The stored request: an invitation's row (its token's hash) is kept for applying, never shown.
    const raw = await trx.selectFrom('proposals').select('request').where('id', '=', p.id).executeTakeFirstOrThrow()
    const request = JSON.parse(raw.request) as PeopleRequest
    return { result: await applyPeople(store, trx, actor, request, p.proposer_user_id, now, approval), learn: () => {} }
  }
  if (p.kind === 'key-write') return { result: await applyKey(store, trx, actor, p, now), learn: () => {} }
  const effect = p.effect as { before?: ApprovalStep[]; bulk_threshold_before?: number | null }
  const current = await policyOf(trx, actor.companyId)
  if (policyKey(current) !== policyKey({ require_approval: effect.before ?? [], bulk_threshold: effect.bulk_threshold_before ?? null }))
    throw new AppError('conflict', 'the approval policy changed since this change of it was proposed')
  return { result: await writePolicy(trx, actor, req.require_approval ?? [], req.bulk_threshold ?? null, now), learn: () => {} }
}

/**
 * The key as proposed, its hash the one whose secret the proposer was shown: refused when the
 * proposer was disabled, lost the scopes since, or the key would be expired.
 */
async function applyKey(store: Store, trx: Kysely<Db>, actor: Actor, p: Proposal, now: Date) {
  const raw = await trx.selectFrom('proposals').select('request').where('id', '=', p.id).executeTakeFirstOrThrow()
  const { row, rolls, grace_seconds: grace } = JSON.parse(raw.request) as { row: ApiKeyRow; rolls?: string; grace_seconds?: number }
  const scopes = JSON.parse(row.scopes) as string[]
  const proposer = await trx.selectFrom('users').select(['role', 'disabled_at']).where('id', '=', row.created_by).executeTakeFirst()
  if (!proposer || proposer.disabled_at) throw new AppError('conflict', `the proposer of key ${row.name} was disabled since`)
  const beyond = scopesBeyond(scopes, scopesOfRole(proposer.role))
  if (beyond.length) throw new AppError('conflict', `the proposer's role no longer has ${beyond.join(', ')}`)
  if (row.expires_at && row.expires_at <= now.toISOString()) throw new AppError('conflict', `key ${row.name} expired at ${row.expires_at}`)
  // A roll replaces the key it was proposed for, which must be as it was: neither rolled nor revoked since.
  if (rolls) return rollIn(store, trx, actor, row, grace ?? 0, now)
  return insertApiKey(store, trx, actor, { ...row, created_at: now.toISOString() }, now)
}
