/**
 * A company's approval policy (docs/people.md, "Approval policies"): off until set; which steps wait
 * for a second person. Setting it takes `users` (the owner); once any step needs approval, changing
 * the policy does too.
 */
import type { Kysely } from 'kysely'
import { AppError } from '../../kernel/errors.js'
import type { Db } from '../../store/schema.js'
import { actorId, type Actor } from '../actor.js'
import type { Held } from './step-types.js'

/**
 * The policy as stored, whatever the steps' names (the registry names them: registry.ts). Its
 * threshold is the bulk step's, set exactly when that step is held (writePolicy's callers null it
 * otherwise), so a threshold says the step is held.
 */
export interface PolicyState<S extends string = string> {
  require_approval: S[]
  bulk_threshold: number | null
  updated_by: string | null
  updated_at: string | null
}

/** `S`: the steps' names, as the caller knows them (they were written by writePolicy). */
export async function policyOf<S extends string = string>(db: Kysely<Db>, companyId: string): Promise<PolicyState<S>> {
  const row = await db.selectFrom('approval_policies').selectAll().where('company_id', '=', companyId).executeTakeFirst()
  if (!row) return { require_approval: [], bulk_threshold: null, updated_by: null, updated_at: null }
  return {
    require_approval: JSON.parse(row.require) as S[],
    bulk_threshold: row.bulk_threshold ?? null,
    updated_by: row.updated_by,
    updated_at: row.updated_at,
  }
}

/** Whether a step waits for approval now (`held`: its registry entry's). */
export function needsApproval(policy: Pick<PolicyState, 'require_approval'>, step: { name: string; held: Held }): boolean {
  if (step.held === 'always') return true
  return step.held === 'implied' ? policy.require_approval.length > 0 : policy.require_approval.includes(step.name)
}

export function requirePolicySetter(actor: Actor): void {
  if (actor.kind !== 'jwt' || !actor.scopes.includes('users'))
    throw new AppError('forbidden', 'only a login whose role has the users scope (the owner) may change the approval policy')
}

/** Whether a mass change of `rows` transactions (a bulk update or delete, a rule run) waits for approval. */
export function bulkNeedsApproval(policy: PolicyState, rows: number): boolean {
  return policy.bulk_threshold !== null && rows > policy.bulk_threshold
}

/** The policy's steps and threshold, compared to see whether it moved since a proposal. */
export const policyKey = (p: Pick<PolicyState, 'require_approval' | 'bulk_threshold'>) =>
  JSON.stringify([[...p.require_approval].sort(), p.bulk_threshold ?? null])

/** Write the policy inside the caller's write transaction. */
export async function writePolicy<S extends string>(
  trx: Kysely<Db>,
  actor: Actor,
  steps: S[],
  /** Null unless the bulk step is among `steps`. */
  threshold: number | null,
  now: Date,
): Promise<PolicyState<S>> {
  const row = { require: JSON.stringify(steps), bulk_threshold: threshold, updated_by: actorId(actor), updated_at: now.toISOString() }
  const found = await trx.selectFrom('approval_policies').select('company_id').where('company_id', '=', actor.companyId).executeTakeFirst()
  if (found) await trx.updateTable('approval_policies').set(row).where('company_id', '=', actor.companyId).execute()
  else
    await trx
      .insertInto('approval_policies')
      .values({ company_id: actor.companyId, ...row })
      .execute()
  return { require_approval: steps, bulk_threshold: threshold, updated_by: row.updated_by, updated_at: row.updated_at }
}
