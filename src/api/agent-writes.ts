/**
 * An agent's key (docs/agents.md): every write it asks for is answered here, before any route, as a
 * proposal (202) or refused (403), so that no route that writes is ever reached by one. The writes it
 * may propose are in PROPOSED; STAGING are the steps of a review import (`tx import --review`), which
 * keep rows apart from the books for an apply the agent then proposes; READS are reads sent as a POST.
 * Deciding a proposal is refused. Each is named by its route (`METHOD /x/{id}`), the one the request matched.
 */
import type { Context } from 'hono'
import type { z } from '@hono/zod-openapi'
import type { AgentAsk } from '../domain/approvals/agent-request.js'
import type { Proposal } from '../domain/approvals/schemas.js'
import { zodError } from '../domain/validation.js'
import { AppError } from '../kernel/errors.js'
import type { AppDeps, AppEnv } from './env.js'
import { doneOrProposed } from './proposed.js'
import { matchedRoute } from './route-template.js'

/** `id`: the route's `{id}`, as the request's path gives it. */
type Propose = (c: Context<AppEnv>, deps: AppDeps, id: string, ask: AgentAsk) => Promise<Proposal>

const domain = () => import('../domain/approvals/agent-request.js')
const schemas = () => import('../domain/schemas.js')

async function body<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.output<T>> {
  let json: unknown
  try {
    json = await c.req.json()
  } catch {
    throw new AppError('validation_error', 'the request body is not valid JSON')
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw zodError(parsed.error, 'body')
  return parsed.data
}

const decoded = (v: string) => {
  try {
    return decodeURIComponent(v)
  } catch {
    return v
  }
}

/** The writes an agent may propose: its route, what proposes it. */
const PROPOSED: Readonly<Record<string, Propose>> = {
  'PATCH /api-v1/transactions/{id}': async (c, deps, id, ask) => {
    const { UpdateTransactionRequest } = await schemas()
    const patch = await body(c, UpdateTransactionRequest)
    return (await domain()).proposeUpdate(deps.store, c.get('actor'), id, patch, deps.now(), ask)
  },
  'POST /api-v1/transactions/{id}/notes': async (c, deps, id, ask) => {
    const { NoteRequest } = await schemas()
    const note = await body(c, NoteRequest)
    return (await domain()).proposeNote(deps.store, c.get('actor'), id, note.text, deps.now(), ask)
  },
  'POST /api-v1/categorization-rules': async (c, deps, _id, ask) => {
    const { CreateRuleRequest, RuleApplyRequest } = await import('../domain/categorization/rule-schemas.js')
    const input = await body(c, CreateRuleRequest)
    // The run the approval makes with the rule: `?apply=false` creates the rule alone.
    const q = c.req.query()
    const run = RuleApplyRequest.safeParse({
      ...(q.since === undefined ? {} : { since: q.since }),
      ...(q.only_empty === undefined ? {} : { only_empty: q.only_empty === 'true' }),
    })
    if (!run.success) throw zodError(run.error, 'query')
    if (q.apply !== undefined && q.apply !== 'true' && q.apply !== 'false')
      throw new AppError('validation_error', 'apply: must be true or false')
    return (await domain()).proposeRule(deps.store, c.get('actor'), input, { ...run.data, apply: q.apply !== 'false' }, deps.now(), ask)
  },
  'POST /api-v1/imports/{id}/apply': async (c, deps, id, ask) =>
    (await domain()).proposeImport(deps.store, c.get('actor'), id, deps.now(), ask),
}

/** A review import's steps: rows kept pending, apart from the books. */
const STAGING = new Set(['POST /api-v1/imports/{id}/pending', 'POST /api-v1/imports/{id}/finish', 'PUT /api-v1/imports/{id}/file/{part}'])
/** Reads sent as a POST (their body a question, nothing written): answered as for anyone. */
const READS = new Set(['POST /api-v1/forecast'])
const OPEN_IMPORT = 'POST /api-v1/imports'
const DECIDE: Readonly<Record<string, 'approve' | 'reject'>> = {
  'POST /api-v1/approvals/{id}/approve': 'approve',
  'POST /api-v1/approvals/{id}/reject': 'reject',
}

/** The `{id}` of the matched route (`/api-v1/<resource>/{id}/...`): its path's fourth segment. */
const idOf = (c: Context<AppEnv>) => decoded(c.req.path.split('/')[3] ?? '')

/** The reason an agent states for its write (docs/agents.md): `X-Finctl-Reason`, percent-encoded when not ASCII. */
function reasonOf(c: Context<AppEnv>): string | null {
  const raw = c.req.header('x-finctl-reason')
  if (raw === undefined || raw.trim() === '') return null
  const text = decoded(raw).trim()
  if (text.length > 1000) throw new AppError('validation_error', 'X-Finctl-Reason: must be at most 1000 characters')
  return text
}

/** Answer an agent's write: proposed (202), let through to a review import's step, or refused (403). */
export async function answerAgentWrite(c: Context<AppEnv>, deps: AppDeps, next: () => Promise<void>): Promise<Response | undefined> {
  const { method, path } = c.req
  const route = matchedRoute(c) ?? ''
  const decide = DECIDE[route]
  if (decide) {
    const { requireDecider } = await import('../domain/approvals/proposals.js')
    requireDecider(c.get('actor'), decide)
  }
  const propose = PROPOSED[route]
  if (propose) {
    const proposal = await propose(c, deps, idOf(c), { reason: reasonOf(c), window: deps.dateWindow })
    return doneOrProposed(c, { proposal })
  }
  if (READS.has(route)) {
    await next()
    return undefined
  }
  const staged = STAGING.has(route)
  if (staged || (route === OPEN_IMPORT && (await opensReview(c)))) {
    if (staged) await requireReviewBatch(c, deps, idOf(c))
    await next()
    return undefined
  }
  throw new AppError(
    'forbidden',
    `an agent's key only proposes (docs/agents.md): ${method} ${path} is no write it may propose; a person makes it`,
  )
}

/** A new import batch is a review's (`options.review`, a CSV's): anything else would write rows at once. */
async function opensReview(c: Context<AppEnv>): Promise<boolean> {
  const json = (await c.req.json().catch(() => null)) as { kind?: string; options?: { review?: unknown } } | null
  return json !== null && (json.kind ?? 'csv') === 'csv' && json.options?.review === true
}

async function requireReviewBatch(c: Context<AppEnv>, deps: AppDeps, id: string): Promise<void> {
  const { loadReview } = await import('../domain/imports/review.js')
  const b = await loadReview(deps.store, c.get('actor').companyId, id)
  if (!b.review || b.kind !== 'csv')
    throw new AppError('forbidden', "an agent's key stages rows only on a review import's batch (tx import --review)")
}
