/**
 * Where each route of the service is: its method and path, one table per route group. A route's
 * definition (`createRoute` in routes/<group>.ts) spreads its entry, and the client
 * (src/client/route-call.ts) sends to the same entry, typed by that definition: a path is written
 * once, here. The module holds strings only, so the client loads no schema (no zod) to find a route.
 */

const V1 = '/api-v1'

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** A route outside the versioned API (the service's health, logins, key administration). */
const at = <M extends Method, P extends string>(method: M, path: P) => ({ method, path })

/** A route of the versioned API: the one place its prefix is written. */
const v1 = <M extends Method, P extends string>(method: M, path: P) => ({ method, path: `${V1}${path}` as `${typeof V1}${P}` })

/** A path as Hono's router writes it (`{id}` as `:id`), for a route mounted without its definition (an upload, a file). */
export const routerPath = <P extends string>(path: P) => path.replace(/\{(\w+)\}/g, ':$1') as RouterPath<P>
type RouterPath<P extends string> = P extends `${infer A}{${infer N}}${infer B}` ? `${A}:${N}${RouterPath<B>}` : P

export const systemPaths = { health: at('get', '/healthz') } as const

export const authPaths = {
  token: at('post', '/auth/token'),
  acceptInvite: at('post', '/auth/invitations/accept'),
} as const

export const apiKeysPaths = {
  me: at('get', '/api-keys/me'),
  myUsage: at('get', '/api-keys/me/usage'),
  list: at('get', '/api-keys'),
  create: at('post', '/api-keys'),
  revoke: at('delete', '/api-keys/{id}'),
  roll: at('post', '/api-keys/{id}/roll'),
  usage: at('get', '/api-keys/{id}/usage'),
} as const

export const approvalsPaths = {
  policy: v1('get', '/policy'),
  setPolicy: v1('put', '/policy'),
  list: v1('get', '/approvals'),
  get: v1('get', '/approvals/{id}'),
  approve: v1('post', '/approvals/{id}/approve'),
  reject: v1('post', '/approvals/{id}/reject'),
} as const

export const auditPaths = { verify: v1('get', '/audit/verify') } as const

export const bankAccountsPaths = {
  list: v1('get', '/bank-accounts'),
  create: v1('post', '/bank-accounts'),
  get: v1('get', '/bank-accounts/{id}'),
  update: v1('patch', '/bank-accounts/{id}'),
  delete: v1('delete', '/bank-accounts/{id}'),
  transactions: v1('get', '/bank-accounts/{id}/transactions'),
} as const

export const budgetsPaths = {
  list: v1('get', '/budgets'),
  set: v1('post', '/budgets'),
  delete: v1('delete', '/budgets'),
  versions: v1('get', '/budgets/versions'),
  makeCurrent: v1('post', '/budgets/versions/{name}/current'),
} as const

export const categoriesPaths = { list: v1('get', '/categories') } as const

export const categorizationRulesPaths = {
  list: v1('get', '/categorization-rules'),
  create: v1('post', '/categorization-rules'),
  testAll: v1('get', '/categorization-rules/test'),
  applyAll: v1('post', '/categorization-rules/apply'),
  get: v1('get', '/categorization-rules/{id}'),
  update: v1('patch', '/categorization-rules/{id}'),
  delete: v1('delete', '/categorization-rules/{id}'),
  test: v1('get', '/categorization-rules/{id}/test'),
  apply: v1('post', '/categorization-rules/{id}/apply'),
} as const

export const categorizationPaths = {
  model: v1('get', '/categorization/model'),
  retrain: v1('post', '/categorization/model/retrain'),
  settings: v1('patch', '/categorization/settings'),
  review: v1('get', '/categorization/review'),
  suggestion: v1('get', '/categorization/suggestions/{transaction_id}'),
} as const

export const closePaths = {
  status: v1('get', '/close/status'),
  policy: v1('get', '/close/policy'),
  setPolicy: v1('put', '/close/policy'),
  history: v1('get', '/close'),
  month: v1('post', '/close/{month}'),
  reopen: v1('post', '/close/{month}/reopen'),
  attachExport: v1('post', '/close/{month}/exports'),
  verify: v1('get', '/close/{month}/verify'),
  pack: v1('get', '/close/{month}/pack'),
  signPack: v1('post', '/close/{month}/pack/signature'),
} as const

export const companyPaths = { get: v1('get', '/company') } as const

export const documentsPaths = {
  add: v1('post', '/documents'),
  content: v1('get', '/documents/{id}/content'),
  suggestions: v1('get', '/documents/suggestions'),
  applySuggestions: v1('post', '/documents/suggestions/apply'),
  suggestion: v1('get', '/documents/{id}/suggestions'),
  list: v1('get', '/documents'),
  get: v1('get', '/documents/{id}'),
  link: v1('post', '/documents/{id}/links'),
  unlink: v1('delete', '/documents/{id}/links/{transaction_id}'),
} as const

export const eventsPaths = {
  list: v1('get', '/events'),
  get: v1('get', '/events/{id}'),
  resend: v1('post', '/events/{id}/resend'),
} as const

export const exchangeRatesPaths = {
  import: v1('post', '/exchange-rates/import'),
  list: v1('get', '/exchange-rates'),
  set: v1('put', '/exchange-rates/{date}/{currency}'),
  delete: v1('delete', '/exchange-rates/{date}/{currency}'),
} as const

export const exportsPaths = {
  transactions: v1('get', '/exports/transactions'),
  openingBalances: v1('get', '/exports/opening-balances'),
  groups: v1('get', '/exports/groups'),
  asOf: v1('get', '/exports/as-of'),
  accountsMap: v1('get', '/exports/accounts-map'),
  setAccountsMap: v1('put', '/exports/accounts-map'),
  clearAccountsMap: v1('delete', '/exports/accounts-map'),
} as const

export const forecastPaths = { run: v1('post', '/forecast') } as const

export const importReviewsPaths = {
  stage: v1('post', '/imports/{id}/pending'),
  pending: v1('get', '/imports/{id}/pending'),
  setRow: v1('patch', '/imports/{id}/pending/{line}'),
  apply: v1('post', '/imports/{id}/apply'),
  discard: v1('post', '/imports/{id}/discard'),
  putFilePart: v1('put', '/imports/{id}/file/{part}'),
  remap: v1('post', '/imports/{id}/remap'),
} as const

export const importsRevertPaths = { revert: v1('post', '/imports/{id}/revert') } as const

export const importsPaths = {
  list: v1('get', '/imports'),
  create: v1('post', '/imports'),
  get: v1('get', '/imports/{id}'),
  finish: v1('post', '/imports/{id}/finish'),
} as const

export const logsPaths = { list: v1('get', '/logs') } as const

export const recurringPaths = {
  list: v1('get', '/recurring'),
  detect: v1('post', '/recurring/detect'),
  add: v1('post', '/recurring'),
  accept: v1('post', '/recurring/{id}/accept'),
  delete: v1('delete', '/recurring/{id}'),
} as const

export const reportsPaths = {
  cashFlow: v1('get', '/reports/cash-flow'),
  summary: v1('get', '/reports/summary'),
  budget: v1('get', '/reports/budget'),
} as const

export const statementsPaths = {
  upload: v1('post', '/statements'),
  file: v1('get', '/statements/{id}/file'),
  list: v1('get', '/statements'),
  get: v1('get', '/statements/{id}'),
  transactions: v1('get', '/statements/{id}/transactions'),
} as const

export const transactionWritesPaths = {
  create: v1('post', '/transactions'),
  bulkUpdate: v1('post', '/transactions/bulk-update'),
  bulkDelete: v1('post', '/transactions/bulk-delete'),
  batch: v1('post', '/transactions/batch'),
  update: v1('patch', '/transactions/{id}'),
  addNote: v1('post', '/transactions/{id}/notes'),
  delete: v1('delete', '/transactions/{id}'),
} as const

export const transactionsPaths = {
  list: v1('get', '/transactions'),
  get: v1('get', '/transactions/{id}'),
} as const

export const usersPaths = {
  me: v1('get', '/users/me'),
  list: v1('get', '/users'),
  invite: v1('post', '/users/invitations'),
  invitations: v1('get', '/users/invitations'),
  revokeInvite: v1('post', '/users/invitations/{id}/revoke'),
  setRole: v1('post', '/users/{id}/role'),
  disable: v1('post', '/users/{id}/disable'),
} as const

export const webhooksPaths = {
  list: v1('get', '/webhook-endpoints'),
  create: v1('post', '/webhook-endpoints'),
  deliver: v1('post', '/webhook-endpoints/deliver'),
  get: v1('get', '/webhook-endpoints/{id}'),
  update: v1('patch', '/webhook-endpoints/{id}'),
  delete: v1('delete', '/webhook-endpoints/{id}'),
  test: v1('post', '/webhook-endpoints/{id}/test'),
} as const
