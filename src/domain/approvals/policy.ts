/**
 * A company's approval policy (docs/people.md, "Approval policies"): off until set; which steps wait
 * for a second person. Setting it takes `users` (the owner); once any step needs approval, changing
 * the policy does too.
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import { type ApprovalStep, IMPLIED_STEPS } from '../../kernel/vocabulary.js'
import type { Db } from '../../store/schema.js'
import { actorId, type Actor } from '../actor.js'
import type { Policy, PolicyRequest } from './schemas.js'

export async function policyOf(db: Kysely<Db>, companyId: string): Promise<Policy> {
  const row = await db.selectFrom('approval_policies').selectAll().where('company_id', '=', companyId).executeTakeFirst()
  if (!row) return { require_approval: [], bulk_threshold: null, updated_by: null, updated_at: null }
  const steps = JSON.parse(row.require) as ApprovalStep[]
  return {
    require_approval: steps,
    bulk_threshold: steps.includes('bulk') ? (row.bulk_threshold ?? null) : null,
    updated_by: row.updated_by,
    updated_at: row.updated_at,
  }
}

/** Whether `step` waits for approval now: `policy` and `people` do as soon as any step does. */
export function needsApproval(policy: Policy, step: ApprovalStep): boolean {
  return IMPLIED_STEPS.includes(step) ? policy.require_approval.length > 0 : policy.require_approval.includes(step)
}

export function requirePolicySetter(actor: Actor): void {
  if (actor.kind !== 'jwt' || !actor.scopes.includes('users'))
    throw new AppError('forbidden', 'only a login whose role has the users scope (the owner) may change the approval policy')
}

/** The steps in their table's order, without repeats (`policy` and `people` are implied, never stored). */
export function normalized(req: PolicyRequest): ApprovalStep[] {
  return [...new Set(req.require_approval)].filter((s) => !IMPLIED_STEPS.includes(s))
}

/** Whether a bulk update or delete of `rows` transactions waits for approval. */
export function bulkNeedsApproval(policy: Policy, rows: number): boolean {
  return policy.require_approval.includes('bulk') && rows > (policy.bulk_threshold ?? 0)
}

/** The policy's steps and threshold, compared to see whether it moved since a proposal. */
export const policyKey = (p: Pick<Policy, 'require_approval' | 'bulk_threshold'>) =>
  JSON.stringify([[...p.require_approval].sort(), p.bulk_threshold ?? null])

/** Write the policy inside the caller's write transaction. */
export async function writePolicy(
  trx: Kysely<Db>,
  actor: Actor,
  steps: ApprovalStep[],
  threshold: number | null,
  now: Date,
): Promise<Policy> {
  const bulk = steps.includes('bulk') ? threshold : null
  const row = { require: JSON.stringify(steps), bulk_threshold: bulk, updated_by: actorId(actor), updated_at: now.toISOString() }
  const found = await trx.selectFrom('approval_policies').select('company_id').where('company_id', '=', actor.companyId).executeTakeFirst()
  if (found) await trx.updateTable('approval_policies').set(row).where('company_id', '=', actor.companyId).execute()
  else
    await trx
      .insertInto('approval_policies')
      .values({ company_id: actor.companyId, ...row })
      .execute()
  return { require_approval: steps, bulk_threshold: bulk, updated_by: row.updated_by, updated_at: row.updated_at }
}
