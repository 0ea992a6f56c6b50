/**
 * What a registry entry of an approval step is made of (registry.ts): its description and the
 * behaviour it loads when a proposal of it is decided. The modules that apply a step import these
 * types, never the registry, which loads them.
 */
import type { Kysely } from 'kysely'
import type { z } from '@hono/zod-openapi'
import type { Scope } from '../../kernel/vocabulary.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Actor } from '../actor.js'
import type { DateWindow } from '../transactions/plausibility.js'
import type { AskedRequest } from './agent-schemas.js'

/**
 * When a step is a proposal: `listed`, when the policy names it; `implied`, as soon as the policy
 * names any step (never stored); `always`, whatever the policy (an agent's write: no policy names it).
 */
export type Held = 'listed' | 'implied' | 'always'

export interface StepScopes {
  /** The scope the step itself takes, which its approver needs. */
  approve: Scope
  /** The scopes its route accepts, where they are not the route's own: a reopen's, `close` or `write` to propose it. */
  route?: readonly Scope[]
  /** Proposed with the scopes its route took, not `write` or `approve` (an agent's write). */
  byRoute?: true
  /** A reviewer (a login with `close`) may approve it for a proposer who still holds `approve`. */
  reviewed?: true
  /** Only a login approves it (a key never does). */
  login?: true
}

/** A proposal of the step as its behaviour reads it: the request and effect typed by the step's schemas. */
export interface Proposed<Req, Eff> {
  id: string
  target: string
  proposed_by: string
  proposer_user_id: string | null
  request: Req
  effect: Eff
}

/**
 * An agent's request sent again through the service's routes as `actor` (src/api/replay.ts), `check`
 * run inside its first write transaction: the answer's status and JSON.
 */
export type Replay = (
  asked: AskedRequest,
  actor: Actor,
  check: (trx: Kysely<Db>) => Promise<void>,
) => Promise<{ status: number; body: unknown }>

/** Where an approved step runs: the decision's write transaction, its approver. */
export interface ApplyContext {
  store: Store
  trx: Kysely<Db>
  actor: Actor
  now: Date
  /** The dates a transaction may carry without `force` (an agent's update or import checks them). */
  window: DateWindow
  /** What the step's event names: the proposal, who proposed it, who approved it. */
  approval: { proposal_id: string; proposed_by: string; approved_by: string }
  /** The service's routes, for a step that is a request replayed (an agent's other writes). */
  replay?: Replay
}

/**
 * What applying a step gives back: its result, what it learnt (run after the commit), work after the
 * commit. `replayed`: that work is the whole step (a request replayed, writing nothing when it fails),
 * so its failure fails the proposal and its answer is the result.
 */
export type Applied = { result: object; learn: () => void; after?: () => Promise<object>; replayed?: true }

export interface StepBehaviour<Req, Eff> {
  /** Applies the step exactly as proposed, refusing it when what it was proposed on moved. */
  apply: (c: ApplyContext, p: Proposed<Req, Eff>) => Promise<Applied>
  /** What the approver needs beyond the step's scope. */
  approve?: (store: Store, actor: Actor, p: Proposed<Req, Eff>) => Promise<void>
  /** Done before the decision's transaction (a revert takes its batch's lock). */
  prepare?: (store: Store, actor: Actor, p: Proposed<Req, Eff>) => Promise<void>
}

export interface StepDefinition<N extends string, R extends z.ZodType, E extends z.ZodType> {
  name: N
  /** Its title in the OpenAPI document (`ReopenProposal`). */
  title: string
  held: Held
  scopes: StepScopes
  /** The request as a proposal shows it (what a step keeps only to apply it, a key's or token's hash, is not shown). */
  request: R
  /** What approving would do, computed when proposed. */
  effect: E
  /** Its behaviour, loaded with the first decision of one (a route that only proposes never loads it). */
  load: () => Promise<StepBehaviour<z.infer<R>, z.infer<E>>>
}

// biome-ignore lint/suspicious/noExplicitAny: any step, whatever its schemas
export type AnyStep = StepDefinition<string, any, any>
