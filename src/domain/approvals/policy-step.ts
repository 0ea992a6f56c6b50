/** Applying an approved change of the policy: refused when the policy moved since it was proposed. */
import { AppError } from '../../kernel/errors.js'
import { policyKey, policyOf, writePolicy } from './policy.js'
import type { StepBehaviour } from './step-types.js'

type Steps<S> = { require_approval: S[]; bulk_threshold: number | null }
type Change<S> = { before: S[]; after: S[]; bulk_threshold_before: number | null; bulk_threshold_after: number | null }

// Whatever the steps' names: the registry, which names them, loads this.
export const policy: StepBehaviour<Steps<string>, Change<string>> = {
  async apply({ trx, actor, now }, { request, effect }) {
    const current = await policyOf(trx, actor.companyId)
    if (policyKey(current) !== policyKey({ require_approval: effect.before, bulk_threshold: effect.bulk_threshold_before }))
      throw new AppError('conflict', 'the approval policy changed since this change of it was proposed')
    return { result: await writePolicy(trx, actor, request.require_approval, request.bulk_threshold, now), learn: () => {} }
  },
}
