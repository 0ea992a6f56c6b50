/**
 * Applying an approved proposal's step inside the decision's write transaction, exactly as proposed:
 * each step checks first that the data it was proposed on has not moved (docs/people.md, "Approval
 * policies"), and fails the proposal with the reason when it has. What each step does is its
 * registry entry's behaviour (registry.ts).
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import type { DateWindow } from '../transactions/plausibility.js'
import { STEPS } from './registry.js'
import type { Proposal } from './schemas.js'
import type { Applied, Replay, StepBehaviour } from './step-types.js'

/**
 * The step's behaviour. Its entry's schemas typed what was proposed (propose), and the proposal's
 * kind picks the entry: the cast only says so to a compiler that cannot follow a union by its kind.
 */
export async function behaviourOf(p: Proposal): Promise<StepBehaviour<Proposal['request'], Proposal['effect']>> {
  return (await STEPS[p.kind].load()) as StepBehaviour<Proposal['request'], Proposal['effect']>
}

export async function applyStep(
  store: Store,
  trx: Kysely<Db>,
  actor: Actor,
  p: Proposal,
  now: Date,
  window: DateWindow,
  replay?: Replay,
): Promise<Applied> {
  // The step's event names the proposal and who proposed it; its actor is the approver.
  const approval = { proposal_id: p.id, proposed_by: p.proposed_by, approved_by: actorId(actor) }
  return (await behaviourOf(p)).apply({ store, trx, actor, now, window, approval, replay }, p)
}
