/**
 * What a request of the typed client is and how an answer becomes a result or an AppError, for
 * both transports alike (client.ts sends; this reads).
 */
import type { AgentStepRequest } from '../domain/approvals/agent-schemas.js'
import type { StepName } from '../domain/approvals/registry.js'
import { AppError, type ErrorCode, type ErrorDetail } from '../kernel/errors.js'

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

export interface PaginationInfo {
  limit: number
  next_cursor: string | null
  has_more: boolean
  total: number
}

export interface ApiResult<T> {
  status: number
  data: T
  pagination?: PaginationInfo
  /** GET /transactions with include_account_names=true: the page's bank accounts, id to name. */
  accountNames?: Record<string, string>
  headers: Headers
}

/** Which credential a request uses: key administration needs the JWT. */
export type AuthMode = 'data' | 'admin' | 'none'

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  auth?: AuthMode
  headers?: Record<string, string>
  /** Abandons the request (a long poll when the command stops). */
  signal?: AbortSignal
}

export interface RequestLog {
  method: string
  url: string
  status: number
  ms: number
}

export interface ClientOptions {
  baseUrl: string
  fetch: FetchLike
  apiKey?: string
  token?: string
  /**
   * Retries of a 429 answer, or of a 503 with Retry-After (a database locked past the service's wait:
   * nothing was done), waiting Retry-After each time (bounded by maxRetryWaitSeconds).
   */
  maxRetries?: number
  maxRetryWaitSeconds?: number
  onRequest?: (log: RequestLog) => void
  /**
   * Awaited before a request that writes (any method but GET, HEAD, OPTIONS) with credentials, once
   * per request; it may throw to stop the write. The CLI uses it to name a remote target and to
   * confirm writes through a protected profile.
   */
  beforeWrite?: (req: { method: string; path: string }) => Promise<void>
  sleep?: (ms: number) => Promise<void>
}

/** What every request of a client carries beside its own: headers, and the signal that ends it. */
export interface Marks {
  headers: Record<string, string>
  signal?: AbortSignal
}

/** The options of a client whose requests carry `m` (Client.with). */
export function marked(opts: ClientOptions, m: Marks): ClientOptions {
  const { fetch } = opts
  return {
    ...opts,
    fetch: (url, init) =>
      fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...m.headers }, signal: m.signal ?? init.signal }),
  }
}

/** A URL as a log may show it: no key or token in its query. */
export function redactQuery(url: string): string {
  return url.replace(/([?&](?:api_key|token|key)=)[^&]*/gi, '$1***')
}

/** The JSON value an in-process answer kept (embedded/in-process.ts LiteResponse), if it kept one. */
export function answerValue(res: Response): { value: unknown } | undefined {
  return (res as { jsonValue?: () => { value: unknown } | undefined }).jsonValue?.()
}

export async function parseResponse<T>(res: Response): Promise<ApiResult<T>> {
  // On the embedded transport a list page may come as the app's own value (api/json-answer.ts).
  const kept = answerValue(res)
  let json: unknown
  if (kept) json = kept.value
  else {
    const text = await res.text()
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
  }
  return envelopeResult<T>(res, json)
}

/** A proposal as an answer carries it: enough to name it. */
export interface WaitingProposal {
  id: string
  kind: StepName
  target: string
  state: string
  request?: { action?: AgentStepRequest['action'] }
}

/**
 * An agent's write answered as the request it is, kept for a person to approve (docs/agents.md, "Any
 * other write"): no route's caller expects it as its result, so it is said (exit 15), not read as one.
 */
export class ProposalWaits extends AppError {
  constructor(readonly proposal: WaitingProposal) {
    super(
      'conflict',
      `proposal ${proposal.id} waits for approval (${proposal.kind} ${proposal.target}): finctl approvals show ${proposal.id}`,
    )
  }
}

// Only the agent step's request has an action, and only its `request` replays a whole request.
const isReplayedRequest = (data: unknown): data is WaitingProposal =>
  typeof data === 'object' && data !== null && (data as WaitingProposal).request?.action === 'request'

/** The answer's envelope, read from its JSON: the data and pagination, or the error it names, thrown. */
export function envelopeResult<T>(res: Response, json: unknown): ApiResult<T> {
  const env = json as {
    success?: boolean
    data?: T
    pagination?: PaginationInfo
    account_names?: Record<string, string>
    error?: { code?: string; message?: string; details?: ErrorDetail[]; request_id?: string }
  }
  if (res.status === 202 && env?.success === true && isReplayedRequest(env.data)) throw new ProposalWaits(env.data)
  if (res.ok && env && env.success === true)
    return {
      status: res.status,
      data: env.data as T,
      pagination: env.pagination,
      ...(env.account_names ? { accountNames: env.account_names } : {}),
      headers: res.headers,
    }
  if (env?.error?.code) {
    const retry = res.headers.get('retry-after')
    throw new AppError(env.error.code as ErrorCode, env.error.message ?? `HTTP ${res.status}`, {
      details: env.error.details,
      requestId: env.error.request_id,
      retryAfter: retry ? Number(retry) : undefined,
      status: res.status,
    })
  }
  throw new AppError(
    res.status === 404 ? 'not_found' : 'internal_error',
    `unexpected HTTP ${res.status} answer from the service (not a finctl envelope)`,
    {
      status: res.status,
    },
  )
}

/** The error of a target that did not answer at all. */
export function unreachable(baseUrl: string, err: unknown): AppError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause
  const why = cause?.code ?? cause?.message ?? (err as Error)?.message ?? 'unknown error'
  return new AppError('unreachable', `cannot reach ${baseUrl}: ${why}`, { cause: err })
}
