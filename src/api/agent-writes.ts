/**
 * An agent's key (docs/agents.md): every write it asks for is answered here, before any route, as a
 * proposal (202) or refused, so that no route that writes is ever reached by one. PROPOSED are the
 * writes with an effect of their own (a row's fields before and after, a rule's rows, an import's);
 * STAGING are the steps of a review import (`tx import --review`), which keep rows apart from the
 * books for an apply the agent then proposes; READS are reads sent as a POST. Deciding a proposal is
 * refused, and so is opening an import that is no review; any other write is proposed as the request
 * it is (agent-request.ts `proposeRequest`), checked first by its route's schemas. Each is named by its route
 * (`METHOD /x/{id}`), the one the request matched.
 */
import type { Context } from 'hono'
import type { z } from '@hono/zod-openapi'
import type { AgentAsk } from '../domain/approvals/agent-request.js'
import { pathParameters } from '../domain/approvals/agent-binding.js'
import type { AskedRequest } from '../domain/approvals/agent-schemas.js'
import type { Proposal } from '../domain/approvals/schemas.js'
import { zodError } from '../domain/validation.js'
import { AppError } from '../kernel/errors.js'
import type { AppDeps, AppEnv } from './env.js'
import type { Declared } from './middleware/scopes.js'
import { doneOrProposed } from './proposed.js'
import { matchedRoute } from './route-template.js'

/** The largest body of a request an agent proposes as it is: a proposal keeps it, and lists show it. */
export const MAX_PROPOSED_BODY = 1024 * 1024

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
export async function answerAgentWrite(
  c: Context<AppEnv>,
  deps: AppDeps,
  declared: Declared,
  next: () => Promise<void>,
): Promise<Response | undefined> {
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
  if (route === OPEN_IMPORT)
    throw new AppError(
      'forbidden',
      `an agent's key imports through a review (tx import --review, or the propose_import tool): ${method} ${path} would write rows at once`,
    )
  if (route === '') throw new AppError('not_found', `no route for ${method} ${path}`)
  const asked = await askedOf(c, route, declared)
  const { proposeRequest } = await import('../domain/approvals/agent-request.js')
  const proposal = await proposeRequest(deps.store, c.get('actor'), asked, deps.now(), { reason: reasonOf(c), window: deps.dateWindow })
  return doneOrProposed(c, { proposal })
}

/** The request as a proposal keeps it, checked by its route's schemas first (a 400 names the field now, not at approval). */
async function askedOf(c: Context<AppEnv>, route: string, declared: Declared): Promise<AskedRequest> {
  const schemas = declared.requests().get(route) ?? {}
  // A middleware sees no route's `c.req.param()`: the path read by the matched route's template.
  const named = Object.fromEntries(pathParameters(route, c.req.path).map((p) => [p.name, p.value]))
  const params = schemas.params?.safeParse(named)
  if (params && !params.success) throw zodError(params.error, 'path')
  const query = schemas.query?.safeParse(c.req.query())
  if (query && !query.success) throw zodError(query.error, 'query')
  const type = c.req.header('content-type') ?? null
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (bytes.byteLength > MAX_PROPOSED_BODY)
    throw new AppError(
      'payload_too_large',
      `an agent's key proposes a request of at most 1 MiB (this one is ${bytes.byteLength} bytes): a larger file is a person's to send`,
    )
  let body: AskedRequest['body'] = null
  if (bytes.byteLength > 0 && type?.toLowerCase().startsWith('application/json')) {
    let json: unknown
    try {
      json = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      throw new AppError('validation_error', 'the request body is not valid JSON')
    }
    const parsed = schemas.body?.safeParse(json)
    if (parsed && !parsed.success) throw zodError(parsed.error, 'body')
    body = { json }
  } else if (bytes.byteLength > 0) body = { base64: Buffer.from(bytes).toString('base64'), bytes: bytes.byteLength }
  const url = c.req.url
  const q = url.indexOf('?')
  const accepts = [...(declared.scopes().get(route) ?? [])]
  return { method: c.req.method, route, path: c.req.path, query: q < 0 ? '' : url.slice(q), content_type: type, body, accepts }
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
