/**
 * The typed client. It builds requests for the service and sends them through a fetch-like
 * transport: the embedded core (`app.fetch`) or a remote base_url (undici). Commands never know
 * which. Error envelopes are rebuilt into AppError, so both transports fail the same way.
 */
import type { Event } from '../domain/events.js'
import type {
  CreatedWebhookEndpoint,
  CreateWebhookRequest,
  DeliverResult,
  SendResult,
  UpdateWebhookRequest,
  WebhookDetail,
  WebhookEndpoint,
} from '../domain/webhooks/schemas.js'
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

export type { ApiResult, AuthMode, ClientOptions, FetchLike, PaginationInfo, RequestLog, RequestOptions } from './request.js'
export { parseResponse } from './request.js'
import { monotonicMs } from '../kernel/clock.js'
import type {
  BankAccount,
  BatchCreateMinimalResponse,
  BatchCreateResponse,
  BulkDeleteRequest,
  BulkDeleteResponse,
  BulkUpdateRequest,
  BulkUpdateResponse,
  Categories,
  Company,
  TransactionDetail,
  UpdateBankAccountRequest,
  UpdateTransactionRequest,
  CreateBankAccountRequest,
  CreateTransactionRequest,
  Transaction,
} from '../domain/schemas.js'
import type { CreatedInvitation, InvitationStatus, InviteRequest, User, Whoami, AcceptedInvitation } from '../domain/users/schemas.js'
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey, RolledApiKey, RollApiKeyRequest, UsageStats } from '../domain/api-keys/schemas.js'
import type { CashFlowQuery, CashFlowReport, SummaryQuery, SummaryReport } from '../domain/reports/schemas.js'
import type { ExportAsOf, ExportGroups, ExportTransaction, OpeningBalances } from '../domain/exports/schemas.js'
import type {
  CloseExport,
  CloseExportRequest,
  CloseRecord,
  CloseRequest,
  CloseStatus,
  CloseVerification,
} from '../domain/closing/schemas.js'
import type { AuditVerification } from '../domain/transactions/verify.js'
import { documentCalls } from './documents.js'
import { statementCalls } from './statements.js'
import { closePackCalls, closePolicyCalls } from './close-pack.js'
import { exportMapCalls } from './export-map.js'
import { importCalls } from './imports.js'
import { budgetCalls } from './budgets.js'
import { forecastCalls, recurringCalls } from './recurring.js'
import type { ExchangeRate, RatesImportJson, RatesImportResult, SetExchangeRateRequest } from '../domain/rates/schemas.js'
import type { CategorizationSettings, ModelStatus, ReviewItem, Suggestion } from '../domain/categorization/schemas.js'
import type { z } from 'zod'
import type { Proposal, ProposedInvitation, ProposedKey } from '../domain/approvals/schemas.js'
import { approvalCalls, doneOf, type Outcome, outcome, policyCalls } from './approvals.js'

/** Query of GET /transactions, as the client sends it. */
export type TransactionQuery = Record<string, string | number | boolean | undefined>

/** The base URL of the embedded target (in-process or on a thread): no socket, never resolved. */
export const EMBEDDED_BASE_URL = 'http://finctl.embedded'

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
type DeletedTx = import('../domain/schemas.js').DeletedTransaction

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

  // ---- typed operations -------------------------------------------------------------------

  health() {
    return this.request<{ status: string; version: string; store: string }>('GET', '/healthz', { auth: 'none' }).then((r) => r.data)
  }

  token(email: string, password: string) {
    return this.request<{ access_token: string; token_type: string; expires_in: number; scopes: string[] }>('POST', '/auth/token', {
      auth: 'none',
      body: { email, password },
    }).then((r) => r.data)
  }

  /** Accept an invitation (docs/people.md): the new user's access token. */
  acceptInvite(token: string, password: string) {
    return this.request<AcceptedInvitation>('POST', '/auth/invitations/accept', {
      auth: 'none',
      body: { token, password },
    }).then((r) => r.data)
  }

  readonly users = {
    me: () => this.request<Whoami>('GET', '/api-v1/users/me').then((r) => r.data),
    list: () => this.request<User[]>('GET', '/api-v1/users', { auth: 'admin' }).then((r) => r.data),
    invite: (body: InviteRequest) => this.users.requestInvite(body).then(doneOf),
    /** An invitation, or under an approval policy (a role that can approve) its proposal with the token, shown once. */
    requestInvite: (body: InviteRequest) =>
      this.request<CreatedInvitation | ProposedInvitation>('POST', '/api-v1/users/invitations', { auth: 'admin', body }).then(
        (r) => outcome<CreatedInvitation>(r) as Outcome<CreatedInvitation, ProposedInvitation>,
      ),
    setRole: (user: string, role: string) => this.users.requestSetRole(user, role).then(doneOf),
    /** A role change, or under an approval policy (a role that can approve) its proposal. */
    requestSetRole: (user: string, role: string) =>
      this.request<User | Proposal>('POST', `/api-v1/users/${encodeURIComponent(user)}/role`, { auth: 'admin', body: { role } }).then((r) =>
        outcome<User>(r),
      ),
    disable: (user: string) =>
      this.request<User>('POST', `/api-v1/users/${encodeURIComponent(user)}/disable`, { auth: 'admin' }).then((r) => r.data),
    invitations: (o: { all?: boolean } = {}) =>
      this.request<InvitationStatus[]>('GET', '/api-v1/users/invitations', {
        auth: 'admin',
        query: { all: o.all ? 'true' : undefined },
      }).then((r) => r.data),
    revokeInvite: (id: string) =>
      this.request<InvitationStatus>('POST', `/api-v1/users/invitations/${encodeURIComponent(id)}/revoke`, { auth: 'admin' }).then(
        (r) => r.data,
      ),
  }

  readonly keys = {
    me: () => this.request<ApiKey>('GET', '/api-keys/me').then((r) => r.data),
    /** The calling key's usage, or with keyId that key's (needs the JWT). */
    usage: (o: { keyId?: string; recent?: number } = {}) =>
      (o.keyId
        ? this.request<UsageStats>('GET', `/api-keys/${encodeURIComponent(o.keyId)}/usage`, { auth: 'admin', query: { recent: o.recent } })
        : this.request<UsageStats>('GET', '/api-keys/me/usage', { query: { recent: o.recent } })
      ).then((r) => r.data),
    list: (status?: string) => this.request<ApiKey[]>('GET', '/api-keys', { auth: 'admin', query: { status } }).then((r) => r.data),
    create: (body: CreateApiKeyRequest) => this.keys.requestCreate(body).then(doneOf),
    /** A key, or under a key-write approval policy its proposal (with the key, shown once). */
    requestCreate: (body: CreateApiKeyRequest) =>
      this.request<CreatedApiKey | ProposedKey>('POST', '/api-keys', { auth: 'admin', body }).then(
        (r) => outcome<CreatedApiKey>(r) as Outcome<CreatedApiKey, ProposedKey>,
      ),
    revoke: (id: string) => this.request<ApiKey>('DELETE', `/api-keys/${encodeURIComponent(id)}`, { auth: 'admin' }).then((r) => r.data),
    roll: (id: string, body: RollApiKeyRequest) => this.keys.requestRoll(id, body).then(doneOf),
    /** A roll, or under a key-write approval policy its proposal (with the successor's key, shown once). */
    requestRoll: (id: string, body: RollApiKeyRequest) =>
      this.request<RolledApiKey | ProposedKey>('POST', `/api-keys/${encodeURIComponent(id)}/roll`, { auth: 'admin', body }).then(
        (r) => outcome<RolledApiKey>(r) as Outcome<RolledApiKey, ProposedKey>,
      ),
  }

  readonly accounts = {
    list: (q: { status?: string; account_type?: string } = {}) => this.request<BankAccount[]>('GET', '/api-v1/bank-accounts', { query: q }),
    create: (body: CreateBankAccountRequest) => this.request<BankAccount>('POST', '/api-v1/bank-accounts', { body }).then((r) => r.data),
    get: (id: string) => this.request<BankAccount>('GET', `/api-v1/bank-accounts/${encodeURIComponent(id)}`).then((r) => r.data),
    update: (id: string, body: UpdateBankAccountRequest) =>
      this.request<BankAccount>('PATCH', `/api-v1/bank-accounts/${encodeURIComponent(id)}`, { body }).then((r) => r.data),
    delete: (id: string) =>
      this.request<{ id: string; deleted: true }>('DELETE', `/api-v1/bank-accounts/${encodeURIComponent(id)}`).then((r) => r.data),
    transactions: (id: string, q: TransactionQuery = {}) =>
      this.request<Transaction[]>('GET', `/api-v1/bank-accounts/${encodeURIComponent(id)}/transactions`, { query: q }),
  }

  readonly transactions = {
    create: (body: CreateTransactionRequest, o: { idempotencyKey?: string } = {}) =>
      this.request<Transaction>('POST', '/api-v1/transactions', {
        body,
        headers: o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : undefined,
      }).then((r) => r.data),
    list: (q: TransactionQuery = {}) => this.request<Transaction[]>('GET', '/api-v1/transactions', { query: q }),
    get: (id: string) => this.request<TransactionDetail>('GET', `/api-v1/transactions/${encodeURIComponent(id)}`).then((r) => r.data),
    update: (id: string, body: UpdateTransactionRequest) => this.transactions.requestUpdate(id, body).then(doneOf),
    requestUpdate: (id: string, body: UpdateTransactionRequest) =>
      this.request<Transaction | Proposal>('PATCH', `/api-v1/transactions/${encodeURIComponent(id)}`, { body }).then(outcome<Transaction>),
    delete: (id: string) => this.request<DeletedTx>('DELETE', `/api-v1/transactions/${encodeURIComponent(id)}`).then((r) => r.data),
    bulkUpdate: (body: BulkUpdateRequest) => this.transactions.requestBulkUpdate(body).then(doneOf),
    bulkDelete: (body: BulkDeleteRequest) => this.transactions.requestBulkDelete(body).then(doneOf),
    /** A bulk update or delete, or over a bulk approval policy's threshold its proposal. */
    requestBulkUpdate: (body: BulkUpdateRequest) =>
      this.request<BulkUpdateResponse | Proposal>('POST', '/api-v1/transactions/bulk-update', { body }).then(outcome<BulkUpdateResponse>),
    requestBulkDelete: (body: BulkDeleteRequest) =>
      this.request<BulkDeleteResponse | Proposal>('POST', '/api-v1/transactions/bulk-delete', { body }).then(outcome<BulkDeleteResponse>),
    batch: (transactions: CreateTransactionRequest[], o: { idempotencyKey?: string; importBatch?: string } = {}) =>
      this.request<BatchCreateResponse>('POST', '/api-v1/transactions/batch', {
        body: { transactions },
        headers:
          o.idempotencyKey || o.importBatch
            ? {
                ...(o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {}),
                ...(o.importBatch ? { 'x-import-batch': o.importBatch } : {}),
              }
            : undefined,
      }).then((r) => r.data),
    /**
     * A batch answered with each created row's index and id (`Prefer: return=minimal`), not the
     * whole transactions: for imports, which need no more. A service that ignores the preference
     * answers the whole shape, which has the same `created[].id`.
     */
    batchMinimal: (
      transactions: CreateTransactionRequest[],
      o: { bulkRows?: number; bulkEnd?: boolean; matchStatementLines?: boolean; importBatch?: string } = {},
    ) =>
      this.request<BatchCreateMinimalResponse | BatchCreateResponse>('POST', '/api-v1/transactions/batch', {
        body: o.matchStatementLines ? { transactions, match_statement_lines: true } : { transactions },
        // `bulk-load=N`: the rows of the whole import, a hint that lets the service prepare for them;
        // `bulk-load-end`: the load's last batch (the service finishes what it prepared before it answers).
        headers: {
          prefer: ['return=minimal', ...(o.bulkRows ? [`bulk-load=${o.bulkRows}`] : []), ...(o.bulkEnd ? ['bulk-load-end'] : [])].join(
            ', ',
          ),
          ...(o.importBatch ? { 'x-import-batch': o.importBatch } : {}),
        },
      }).then((r) => r.data),
  }

  /** Every page of a list, one page at a time (memory holds one page). */
  async *pages<T>(path: string, query: RequestOptions['query'] = {}): AsyncGenerator<ApiResult<T[]>> {
    let cursor: string | undefined
    for (;;) {
      const page = await this.request<T[]>('GET', path, { query: { ...query, cursor } })
      yield page
      cursor = page.pagination?.next_cursor ?? undefined
      if (!page.pagination?.has_more || !cursor) return
    }
  }

  company() {
    return this.request<Company>('GET', '/api-v1/company').then((r) => r.data)
  }

  categories() {
    return this.request<Categories>('GET', '/api-v1/categories').then((r) => r.data)
  }

  readonly categorization = {
    model: () => this.request<z.infer<typeof ModelStatus>>('GET', '/api-v1/categorization/model').then((r) => r.data),
    retrain: () => this.request<z.infer<typeof ModelStatus>>('POST', '/api-v1/categorization/model/retrain').then((r) => r.data),
    settings: (body: { auto_categorize?: boolean; threshold?: number }) =>
      this.request<z.infer<typeof CategorizationSettings>>('PATCH', '/api-v1/categorization/settings', { body }).then((r) => r.data),
    review: (q: { limit?: number; cursor?: string; below?: number } = {}) =>
      this.request<z.infer<typeof ReviewItem>[]>('GET', '/api-v1/categorization/review', { query: q }),
    suggestion: (transactionId: string) =>
      this.request<z.infer<typeof Suggestion> | null>(
        'GET',
        `/api-v1/categorization/suggestions/${encodeURIComponent(transactionId)}`,
      ).then((r) => r.data),
  }

  readonly reports = {
    cashFlow: (q: Partial<Record<keyof CashFlowQuery, string>> = {}) =>
      this.request<CashFlowReport>('GET', '/api-v1/reports/cash-flow', { query: q }).then((r) => r.data),
    summary: (q: Partial<Record<keyof SummaryQuery, string | number>> = {}) =>
      this.request<SummaryReport>('GET', '/api-v1/reports/summary', { query: q }).then((r) => r.data),
  }

  readonly audit = {
    verify: () => this.request<AuditVerification>('GET', '/api-v1/audit/verify').then((r) => r.data),
  }

  readonly exports = {
    /** Every page of a period's transactions in date order (GET /exports/transactions). */
    transactions: (q: { from?: string; to?: string; bank_account_id?: string; limit?: number }) =>
      this.pages<ExportTransaction>('/api-v1/exports/transactions', q),
    openingBalances: (q: { from: string; bank_account_id?: string; as_of?: string }) =>
      this.request<OpeningBalances>('GET', '/api-v1/exports/opening-balances', { query: q }).then((r) => r.data),
    groups: (q: { from: string; to: string; bank_account_id?: string; as_of?: string }) =>
      this.request<ExportGroups>('GET', '/api-v1/exports/groups', { query: q }).then((r) => r.data),
    asOf: (q: { from: string; to: string; bank_account_id?: string; as_of: string }) =>
      this.request<ExportAsOf>('GET', '/api-v1/exports/as-of', { query: q }).then((r) => r.data),
  }

  readonly exportMap = exportMapCalls(this)

  readonly statements = statementCalls(this, (ms) => (this.opts.sleep ?? realSleep)(ms))
  readonly documents = documentCalls(this)
  readonly closePack = closePackCalls(this)
  readonly closePolicy = closePolicyCalls(this)
  readonly budgets = budgetCalls(this)
  readonly recurring = recurringCalls(this)
  readonly forecast = forecastCalls(this)

  readonly rates = {
    list: (q: { currency?: string; from?: string; to?: string; limit?: number; cursor?: string } = {}) =>
      this.request<ExchangeRate[]>('GET', '/api-v1/exchange-rates', { query: q }),
    set: (date: string, currency: string, body: SetExchangeRateRequest) =>
      this.request<ExchangeRate>('PUT', `/api-v1/exchange-rates/${encodeURIComponent(date)}/${encodeURIComponent(currency)}`, {
        body,
      }).then((r) => r.data),
    delete: (date: string, currency: string) =>
      this.request<{ date: string; currency: string; deleted: true }>(
        'DELETE',
        `/api-v1/exchange-rates/${encodeURIComponent(date)}/${encodeURIComponent(currency)}`,
      ).then((r) => r.data),
    /** Import a rates file (JSON, the file in base64): all of it or nothing. */
    import: (body: RatesImportJson) =>
      this.request<RatesImportResult>('POST', '/api-v1/exchange-rates/import', { body }).then((r) => r.data),
  }

  /** Approval policies and proposals (docs/people.md). */
  readonly policy = policyCalls((m, p, o) => this.request(m, p, o))
  readonly approvals = approvalCalls((m, p, o) => this.request(m, p, o))

  /** Closing the books: a login (the owner) before a key, as for key administration. */
  readonly close = {
    status: (month?: string) => this.request<CloseStatus>('GET', '/api-v1/close/status', { query: { month } }).then((r) => r.data),
    month: (month: string, body: CloseRequest) =>
      this.request<{ record: CloseRecord; status: CloseStatus }>('POST', `/api-v1/close/${encodeURIComponent(month)}`, {
        body,
        auth: 'admin',
      }).then((r) => r.data),
    reopen: (month: string, reason: string) => this.close.requestReopen(month, reason).then(doneOf),
    /** A reopen, or under an approval policy its proposal. */
    requestReopen: (month: string, reason: string) =>
      this.request<CloseRecord | Proposal>('POST', `/api-v1/close/${encodeURIComponent(month)}/reopen`, {
        body: { reason },
        auth: 'admin',
      }).then((r) => outcome<CloseRecord>(r)),
    history: () => this.request<CloseRecord[]>('GET', '/api-v1/close').then((r) => r.data),
    /** Record an export written for a closed month on its close record. */
    attachExport: (month: string, body: CloseExportRequest) =>
      this.request<CloseExport>('POST', `/api-v1/close/${encodeURIComponent(month)}/exports`, { body, auth: 'admin' }).then((r) => r.data),
    verify: (month: string) =>
      this.request<CloseVerification>('GET', `/api-v1/close/${encodeURIComponent(month)}/verify`).then((r) => r.data),
  }

  /** The company's events (docs/events.md): a page after a sequence, one event. */
  readonly events = {
    /** `after: 'latest'` starts where the outbox ends now; `wait` seconds makes it a long poll (`finctl listen`). */
    list: async (
      q: { type?: string; after?: number | 'latest'; limit?: number; wait?: number } = {},
      signal?: AbortSignal,
    ): Promise<EventPageData> => {
      const r = await this.request<Event[]>('GET', '/api-v1/events', { query: q, signal })
      const p = r.pagination as unknown as EventPageData['pagination']
      return { data: r.data, pagination: p }
    },
    get: (id: string) => this.request<Event>('GET', `/api-v1/events/${encodeURIComponent(id)}`).then((r) => r.data),
    resend: (id: string, endpointId?: string) =>
      this.request<SendResult[]>('POST', `/api-v1/events/${encodeURIComponent(id)}/resend`, {
        body: endpointId ? { endpoint_id: endpointId } : {},
        auth: 'admin',
      }).then((r) => r.data),
  }

  /** Import batches (docs/api.md, "Imports"): one per `tx import` and statement upload. */
  readonly imports = importCalls(this)

  /** Webhook endpoints (docs/events.md): a login before a key, as for key administration. */
  readonly webhooks = {
    list: () => this.request<WebhookEndpoint[]>('GET', '/api-v1/webhook-endpoints', { auth: 'admin' }).then((r) => r.data),
    create: (body: CreateWebhookRequest) =>
      this.request<CreatedWebhookEndpoint>('POST', '/api-v1/webhook-endpoints', { body, auth: 'admin' }).then((r) => r.data),
    get: (id: string) =>
      this.request<WebhookDetail>('GET', `/api-v1/webhook-endpoints/${encodeURIComponent(id)}`, { auth: 'admin' }).then((r) => r.data),
    update: (id: string, body: UpdateWebhookRequest) =>
      this.request<WebhookEndpoint>('PATCH', `/api-v1/webhook-endpoints/${encodeURIComponent(id)}`, { body, auth: 'admin' }).then(
        (r) => r.data,
      ),
    delete: (id: string) =>
      this.request<{ id: string; deleted: true }>('DELETE', `/api-v1/webhook-endpoints/${encodeURIComponent(id)}`, { auth: 'admin' }).then(
        (r) => r.data,
      ),
    test: (id: string) =>
      this.request<SendResult>('POST', `/api-v1/webhook-endpoints/${encodeURIComponent(id)}/test`, { auth: 'admin' }).then((r) => r.data),
    deliver: () => this.request<DeliverResult>('POST', '/api-v1/webhook-endpoints/deliver', { auth: 'admin' }).then((r) => r.data),
  }
}

/** A page of events: `next_after` is the `after` of the next page. */
export interface EventPageData {
  data: Event[]
  pagination: { limit: number; next_after: number | null; has_more: boolean }
}
