/**
 * Proposals (docs/people.md, "Approval policies"): a step a policy holds back is stored with its
 * request and effect, and applied exactly as proposed when another person approves it. The
 * decision is a conditional update (pending → approved) in the write transaction that applies the
 * step, so two approvers at once cannot both apply it; a step the data no longer allows fails.
 */
import type { Kysely, Selectable } from 'kysely'
import { AppError, notFound } from '../../kernel/errors.js'
import { uuidv7 } from '../../kernel/ids.js'
import { scopesOfRole } from '../../kernel/roles.js'
import type { z } from '@hono/zod-openapi'
import { type ProposalAction, proposalEntry } from '../../store/proposal-entries.js'
import type { Db, ProposalsTable } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { actorId, type Actor } from '../actor.js'
import { eventRow, recordEvents } from '../events.js'
import { applyStep, behaviourOf } from './apply.js'
import { type Step, STEPS, type StepName } from './registry.js'
import type { Proposal, ProposalListQuery, ProposalOf } from './schemas.js'
import type { Replay } from './step-types.js'
import { DEFAULT_DATE_WINDOW, type DateWindow } from '../transactions/plausibility.js'

/** The scope a step's approver needs (the scope the step itself takes). */
const scopeOf = (kind: StepName) => STEPS[kind].scopes.approve

/**
 * Steps a reviewer (a login with `close`: the accountant, the owner) may approve without the
 * step's own scope, for a proposer who still holds it: the proposer could have done the step
 * unheld, so the pair gains no right that neither had (docs/people.md, "Approval policies").
 */
const reviewed = (kind: StepName) => STEPS[kind].scopes.reviewed === true

const reviews = (actor: Actor, kind: StepName) => reviewed(kind) && actor.kind === 'jwt' && actor.scopes.includes('close')

/** A reviewer's approval stands on the proposer's right: a proposer disabled or without the scope since leaves it to one who holds it. */
async function requireEntitledProposer(db: Kysely<Db>, actor: Actor, p: Proposal): Promise<void> {
  const scope = scopeOf(p.kind)
  if (actor.scopes.includes(scope)) return
  const proposer = p.proposer_user_id
    ? await db.selectFrom('users').select(['role', 'disabled_at']).where('id', '=', p.proposer_user_id).executeTakeFirst()
    : undefined
  if (!proposer || proposer.disabled_at || !scopesOfRole(proposer.role).includes(scope))
    throw new AppError(
      'forbidden',
      `proposal ${p.id}'s proposer (${p.proposed_by}) no longer holds the ${scope} scope: a person with ${scope} approves it`,
    )
}

/** A stored proposal: written by propose() from its step's types, so read back as them. */
export function toProposal(r: Selectable<ProposalsTable>): Proposal {
  const request = JSON.parse(r.request) as Proposal['request'] & { row?: unknown }
  // A key-write's or an invitation's stored row (its secret's hash) is for applying it, never shown.
  delete request.row
  return {
    id: r.id,
    kind: r.kind,
    target: r.target,
    request,
    effect: JSON.parse(r.effect) as Proposal['effect'],
    state: r.state as Proposal['state'],
    proposed_by: r.proposed_by,
    proposer_user_id: r.proposer_user_id,
    created_at: r.created_at,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    reason: r.reason,
    result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
  } as Proposal
}

/** Proposing takes what requesting the step takes under the policy: write access, or the step's own scope. */
export function requireProposer(actor: Actor, step: Step): void {
  // An agent proposes what its route's scopes allow it to ask (middleware/scopes.ts checked them).
  if (step.scopes.byRoute && actor.agent) return
  const { name: kind } = step
  const scope = step.scopes.approve
  if (!actor.scopes.includes('write') && !actor.scopes.includes(scope))
    throw new AppError('forbidden', `proposing a ${kind} takes the write or ${scope} scope`)
}

/**
 * A step held back, stored with its request and effect, which the compiler holds to the step's
 * schemas; `kept`: what applying it needs and a proposal never shows (a key's or a token's hash).
 */
export async function propose<S extends Step>(
  store: Store,
  actor: Actor,
  step: S,
  target: string,
  request: z.infer<S['request']>,
  effect: z.infer<S['effect']>,
  now: Date,
  kept: { row?: object } = {},
): Promise<ProposalOf<S['name']>> {
  requireProposer(actor, step)
  const row = {
    id: uuidv7(now.getTime()),
    company_id: actor.companyId,
    kind: step.name,
    target,
    request: JSON.stringify({ ...request, ...kept }),
    effect: JSON.stringify(effect),
    state: 'pending',
    proposed_by: actorId(actor),
    // An agent's proposal is the agent's, not its creator's: the creator may approve it (docs/agents.md).
    proposer_user_id: actor.agent ? null : actor.userId || null,
    created_at: now.toISOString(),
    decided_by: null,
    decided_at: null,
    reason: null,
    result: null,
  }
  const p = toProposal(row) as ProposalOf<S['name']>
  await store.writeTransaction(async (trx) => {
    await trx.insertInto('proposals').values(row).execute()
    await store.writes.appendAudit(trx, [proposalEntry(row, row.proposed_by, 'proposal_requested', row.created_at)])
    await recordEvents(store, trx, [eventRow(actor, 'approval.requested', p.id, p, now)])
  })
  return p
}

export async function listProposals(store: Store, actor: Actor, q: ProposalListQuery): Promise<Proposal[]> {
  let query = store.db.selectFrom('proposals').selectAll().where('company_id', '=', actor.companyId)
  const state = q.state ?? 'pending'
  if (state !== 'all') query = query.where('state', '=', state)
  if (q.mine) query = query.where('proposer_user_id', '=', actor.userId ?? '')
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1000).execute()
  return rows.map(toProposal)
}

export async function getProposal(db: Kysely<Db>, companyId: string, id: string): Promise<Proposal> {
  const row = await db.selectFrom('proposals').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('proposal')
  return toProposal(row)
}

function requirePending(p: Proposal): void {
  if (p.state !== 'pending')
    throw new AppError(
      'conflict',
      `proposal ${p.id} was ${p.state} already${p.decided_by ? `, by ${p.decided_by} at ${p.decided_at}` : ''}`,
    )
}

/** An agent's key never decides a proposal, whatever its scopes (docs/agents.md). */
export function requireDecider(actor: Actor, verb: 'approve' | 'reject'): void {
  if (actor.agent)
    throw new AppError('forbidden', `an agent's key never may ${verb} a proposal: a person decides it (finctl approvals ${verb})`)
}

/** The approver: another user (keys count as their creator), whose scopes include the step's. */
async function requireApprover(store: Store, actor: Actor, p: Proposal): Promise<void> {
  requireDecider(actor, 'approve')
  if (p.proposer_user_id && actor.userId === p.proposer_user_id)
    throw new AppError('forbidden', `proposal ${p.id} is your own (${p.proposed_by}): another person approves it`)
  if (p.proposer_user_id === null && actorId(actor) === p.proposed_by)
    throw new AppError('forbidden', `proposal ${p.id} is your own: another person approves it`)
  const scope = scopeOf(p.kind)
  if (!actor.scopes.includes(scope) && !reviews(actor, p.kind))
    throw new AppError(
      'forbidden',
      `approving a ${p.kind} takes the ${scope} scope${reviewed(p.kind) ? ', or a login with close' : ''}, which this credential lacks`,
    )
  if (STEPS[p.kind].scopes.login && actor.kind !== 'jwt') throw new AppError('forbidden', `approving a ${p.kind} takes a login`)
  await (await behaviourOf(p)).approve?.(store, actor, p)
}

/** `from`: the state it leaves (`approved` for a replayed request that failed after its approval). */
async function decide(
  trx: Kysely<Db>,
  actor: Actor,
  p: Proposal,
  state: Proposal['state'],
  now: Date,
  extra: object = {},
  from: Proposal['state'] = 'pending',
) {
  const r = await trx
    .updateTable('proposals')
    .set({ state, decided_by: actorId(actor), decided_at: now.toISOString(), ...extra })
    .where('id', '=', p.id)
    .where('company_id', '=', actor.companyId)
    .where('state', '=', from)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Mark the proposal failed with the reason, chained with its event; null when it was not `from` any more. */
function markFailed(store: Store, actor: Actor, p: Proposal, why: string, now: Date, from: Proposal['state'] = 'pending') {
  return store.writeTransaction(async (trx) => {
    if (!(await decide(trx, actor, p, 'failed', now, { reason: why }, from))) return null
    const proposal = await chainDecision(store, trx, actor, p.id, now)
    await recordEvents(store, trx, [eventRow(actor, 'approval.decided', p.id, proposal, now)])
    return proposal
  })
}

/** Chain the decision: the proposal's row as it now stands, read back inside the decision's transaction. */
async function chainDecision(store: Store, trx: Kysely<Db>, actor: Actor, id: string, now: Date): Promise<Proposal> {
  const row = await trx
    .selectFrom('proposals')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('proposal')
  await store.writes.appendAudit(trx, [proposalEntry(row, actorId(actor), `proposal_${row.state}` as ProposalAction, now.toISOString())])
  return toProposal(row)
}

/** Codes of a step the data no longer allows: the proposal fails with the reason. */
const STALE = new Set(['conflict', 'period_locked', 'not_found', 'validation_error'])

/**
 * `window`: the dates a transaction may carry without `force` (an agent's update or import checks
 * them); `replay`: the service's routes, for an agent's request replayed as the approver.
 */
export async function approveProposal(
  store: Store,
  actor: Actor,
  id: string,
  now: Date,
  window: DateWindow = DEFAULT_DATE_WINDOW,
  replay?: Replay,
): Promise<Proposal> {
  const p = await getProposal(store.db, actor.companyId, id)
  requirePending(p)
  await requireApprover(store, actor, p)
  await (await behaviourOf(p)).prepare?.(store, actor, p)
  let raced = false
  let done: { proposal: Proposal; after?: () => Promise<object>; replayed?: true }
  try {
    const { proposal, learn, after, replayed } = await store.writeTransaction(async (trx) => {
      if (!(await decide(trx, actor, p, 'approved', now))) {
        raced = true
        requirePending(await getProposal(trx, actor.companyId, id))
      }
      await requireEntitledProposer(trx, actor, p)
      const { result, learn, after, replayed } = await applyStep(store, trx, actor, p, now, window, replay)
      await trx
        .updateTable('proposals')
        .set({ result: JSON.stringify(result) })
        .where('id', '=', p.id)
        .execute()
      const proposal = await chainDecision(store, trx, actor, id, now)
      await recordEvents(store, trx, [eventRow(actor, 'approval.decided', p.id, proposal, now)])
      return { proposal, learn, after, replayed }
    })
    learn()
    done = { proposal, after, replayed }
  } catch (e) {
    if (raced || !(e instanceof AppError) || !STALE.has(e.code)) throw e
    const failed = await markFailed(store, actor, p, e.message, now)
    throw new AppError('conflict', `proposal ${p.id} ${failed ? 'failed and was marked failed' : 'was not applied'}: ${e.message}`)
  }
  if (done.after && done.replayed) return settleReplay(store, actor, p, done.after, now)
  if (done.after) await landAfter(p, done.after)
  return done.proposal
}

/**
 * A request replayed once its approval is committed (agent-binding.ts): its answer is the result, and
 * a refusal (what it was bound to moved inside its write, or its route said no) wrote nothing, so the
 * proposal is failed with the reason. Both are chained as the decision's last entry.
 */
async function settleReplay(store: Store, actor: Actor, p: Proposal, replay: () => Promise<object>, now: Date): Promise<Proposal> {
  let result: object
  try {
    result = await replay()
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    await markFailed(store, actor, p, why, now, 'approved')
    throw new AppError('conflict', `proposal ${p.id} failed and was marked failed: ${why}`)
  }
  return store.writeTransaction(async (trx) => {
    await trx
      .updateTable('proposals')
      .set({ result: JSON.stringify(result) })
      .where('id', '=', p.id)
      .where('company_id', '=', actor.companyId)
      .execute()
    return chainDecision(store, trx, actor, p.id, now)
  })
}

/**
 * What an approved step does once its decision is committed (an agent's review batch landing): done
 * exactly once whoever finishes it, so a failure here leaves the approval and says how to finish.
 */
async function landAfter(p: Proposal, after: () => Promise<object>): Promise<void> {
  try {
    await after()
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    const finish = 'batch_id' in p.request ? p.request.batch_id : undefined
    throw new AppError(
      'conflict',
      `proposal ${p.id} was approved, but applying it stopped: ${why}${finish ? ` (finish it with finctl imports apply ${finish})` : ''}`,
    )
  }
}

/** Reject: the step's approvers, or the proposer withdrawing their own. */
export async function rejectProposal(store: Store, actor: Actor, id: string, reason: string, now: Date): Promise<Proposal> {
  requireDecider(actor, 'reject')
  const p = await getProposal(store.db, actor.companyId, id)
  requirePending(p)
  const own = p.proposer_user_id ? actor.userId === p.proposer_user_id : actorId(actor) === p.proposed_by
  if (!own && !actor.scopes.includes(scopeOf(p.kind)) && !reviews(actor, p.kind))
    throw new AppError('forbidden', `rejecting a ${p.kind} takes the ${scopeOf(p.kind)} scope (or being its proposer)`)
  return store.writeTransaction(async (trx) => {
    if (!(await decide(trx, actor, p, 'rejected', now, { reason }))) requirePending(await getProposal(trx, actor.companyId, id))
    const proposal = await chainDecision(store, trx, actor, id, now)
    await recordEvents(store, trx, [eventRow(actor, 'approval.decided', p.id, proposal, now)])
    return proposal
  })
}
