/** The typed calls of /api-v1/budgets and the budget report (client.ts holds one instance as `client.budgets`). */
import type { Budget, BudgetReport, BudgetVersion, DeletedBudgets, SetBudgetRequest, SetBudgetResult } from '../domain/budgets/schemas.js'
import type { ApiResult, RequestOptions } from './request.js'

interface Requester {
  request<T>(method: string, path: string, o?: RequestOptions): Promise<ApiResult<T>>
}

type Query = Record<string, string | undefined>

export function budgetCalls(c: Requester) {
  return {
    set: (body: SetBudgetRequest) => c.request<SetBudgetResult>('POST', '/api-v1/budgets', { body }).then((r) => r.data),
    list: (q: { version?: string; category?: string; from?: string; to?: string } = {}) =>
      c.request<{ version: string; budgets: Budget[] }>('GET', '/api-v1/budgets', { query: q as Query }).then((r) => r.data),
    delete: (q: { category: string; version?: string; from?: string; to?: string }) =>
      c.request<DeletedBudgets>('DELETE', '/api-v1/budgets', { query: q as Query }).then((r) => r.data),
    versions: () => c.request<BudgetVersion[]>('GET', '/api-v1/budgets/versions').then((r) => r.data),
    makeCurrent: (name: string) =>
      c.request<BudgetVersion>('POST', `/api-v1/budgets/versions/${encodeURIComponent(name)}/current`).then((r) => r.data),
    /** Budget against actual (GET /reports/budget). */
    report: (q: { from?: string; to?: string; interval?: string; version?: string; as_of?: string } = {}) =>
      c.request<BudgetReport>('GET', '/api-v1/reports/budget', { query: q as Query }).then((r) => r.data),
  }
}
