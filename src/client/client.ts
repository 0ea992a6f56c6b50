/**
 * The client. It builds requests for the service and sends them through a fetch-like transport: the
 * embedded core (`app.fetch`) or a remote base_url (undici). Commands never know which. Error
 * envelopes are rebuilt into AppError, so both transports fail the same way. Each resource's calls
 * are a module of their own, typed by the service's routes (route-call.ts); this class sends and
 * composes them.
 */
import { monotonicMs } from '../kernel/clock.js'
import { accountCalls } from './accounts.js'
import { approvalCalls, policyCalls } from './approvals.js'
import { budgetCalls } from './budgets.js'
import { closeCalls } from './close.js'
import { closePackCalls, closePolicyCalls } from './close-pack.js'
import { categorizationCalls } from './categorization.js'
import { companyCalls } from './company.js'
import { documentCalls } from './documents.js'
import { eventCalls } from './events.js'
import { exportCalls } from './exports.js'
import { exportMapCalls } from './export-map.js'
import { importCalls } from './imports.js'
import { keyCalls } from './keys.js'
import { rateCalls } from './rates.js'
import { forecastCalls, recurringCalls } from './recurring.js'
import { auditCalls, reportCalls } from './reports.js'
import { ruleCalls } from './rules.js'
import {
  type ApiResult,
  type AuthMode,
  type ClientOptions,
  marked,
  parseResponse,
  type RequestOptions,
  redactQuery,
  unreachable,
} from './request.js'
import { sessionCalls } from './session.js'
import { statementCalls } from './statements.js'
import { transactionCalls } from './transactions.js'
import { userCalls } from './users.js'
import { webhookCalls } from './webhooks.js'

export type { ApiResult, AuthMode, ClientOptions, FetchLike, PaginationInfo, RequestLog, RequestOptions } from './request.js'
export { parseResponse } from './request.js'
export type { EventPageData } from './events.js'
export type { TransactionQuery } from './transactions.js'

/** The base URL of the embedded target (in-process or on a thread): no socket, never resolved. */
export const EMBEDDED_BASE_URL = 'http://finctl.embedded'

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export class Client {
  readonly baseUrl: string
  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
  }

  /** The same client, each request carrying `headers` and ended by `signal` (an MCP tool call's: docs/agents.md). */
  with(o: Parameters<typeof marked>[1]): Client {
    return new Client(marked(this.opts, o))
  }

  get hasApiKey(): boolean {
    return Boolean(this.opts.apiKey)
  }

  get hasToken(): boolean {
    return Boolean(this.opts.token)
  }

  private credentials(mode: AuthMode): Record<string, string> {
    const { apiKey, token } = this.opts
    if (mode === 'none') return {}
    if (mode === 'admin') return token ? { authorization: `Bearer ${token}` } : apiKey ? { 'x-api-key': apiKey } : {}
    return apiKey ? { 'x-api-key': apiKey } : token ? { authorization: `Bearer ${token}` } : {}
  }

  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(this.baseUrl + path)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v))
    return u.toString()
  }

  /** Send one request; returns the parsed envelope or throws AppError. */
  async request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResult<T>> {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body)
    return parseResponse<T>(await this.send(method, path, { ...o, body }))
  }

  /**
   * Send one request with a body that is already text (JSON) and return the raw answer, after the
   * 429 and 503 retries, whatever its status; throws only when the target cannot be reached (`finctl api`).
   */
  async send(method: string, path: string, o: Omit<RequestOptions, 'body'> & { body?: string } = {}): Promise<Response> {
    const url = this.url(path, o.query)
    const headers: Record<string, string> = { accept: 'application/json', ...this.credentials(o.auth ?? 'data'), ...o.headers }
    const body = o.body
    if (body !== undefined && !Object.keys(o.headers ?? {}).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json'
    if (!READ_METHODS.has(method.toUpperCase()) && (o.auth ?? 'data') !== 'none') await this.opts.beforeWrite?.({ method, path })
    const maxRetries = this.opts.maxRetries ?? 3
    const maxWait = this.opts.maxRetryWaitSeconds ?? 60
    for (let attempt = 0; ; attempt++) {
      const started = monotonicMs()
      let res: Response
      try {
        res = await this.opts.fetch(url, o.signal ? { method, headers, body, signal: o.signal } : { method, headers, body })
      } catch (err) {
        throw unreachable(this.baseUrl, err)
      }
      this.opts.onRequest?.({ method, url: redactQuery(url), status: res.status, ms: Math.round(monotonicMs() - started) })
      if ((res.status === 429 || (res.status === 503 && res.headers.has('retry-after'))) && attempt < maxRetries) {
        const wait = Number(res.headers.get('retry-after') ?? '1')
        if (Number.isFinite(wait) && wait <= maxWait) {
          await res.body?.cancel()
          await (this.opts.sleep ?? realSleep)(Math.max(wait, 0.05) * 1000)
          continue
        }
      }
      return res
    }
  }

  // ---- the resources' calls (one module each) ------------------------------------------------

  private readonly session = sessionCalls(this)
  health() {
    return this.session.health()
  }
  token(email: string, password: string) {
    return this.session.token(email, password)
  }
  /** Accept an invitation (docs/people.md): the new user's access token. */
  acceptInvite(token: string, password: string) {
    return this.session.acceptInvite(token, password)
  }
  private readonly companyCalls = companyCalls(this)
  company() {
    return this.companyCalls.company()
  }
  categories() {
    return this.companyCalls.categories()
  }

  readonly users = userCalls(this)
  readonly keys = keyCalls(this)
  readonly accounts = accountCalls(this)
  readonly transactions = transactionCalls(this)
  readonly categorization = categorizationCalls(this)
  readonly rules = ruleCalls(this)
  readonly reports = reportCalls(this)
  readonly audit = auditCalls(this)
  readonly exports = exportCalls(this)
  readonly exportMap = exportMapCalls(this)
  readonly statements = statementCalls(this, (ms) => (this.opts.sleep ?? realSleep)(ms))
  readonly documents = documentCalls(this)
  readonly closePack = closePackCalls(this)
  readonly closePolicy = closePolicyCalls(this)
  readonly budgets = budgetCalls(this)
  readonly recurring = recurringCalls(this)
  readonly forecast = forecastCalls(this)
  readonly rates = rateCalls(this)
  /** Approval policies and proposals (docs/people.md). */
  readonly policy = policyCalls(this)
  readonly approvals = approvalCalls(this)
  /** Closing the books: a login (the owner) before a key, as for key administration. */
  readonly close = closeCalls(this)
  /** The company's events (docs/events.md): a page after a sequence, one event. */
  readonly events = eventCalls(this)
  /** Import batches (docs/api.md, "Imports"): one per `tx import` and statement upload. */
  readonly imports = importCalls(this)
  /** Webhook endpoints (docs/events.md): a login before a key, as for key administration. */
  readonly webhooks = webhookCalls(this)
}
