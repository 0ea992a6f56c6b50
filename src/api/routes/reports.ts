/** Reports (docs/api.md section 5): cash flow by period, the financial summary, budget against actual. Scope `read` or `reports`. */
import { createRoute } from '@hono/zod-openapi'
import { cashFlowReport, summaryReport } from '../../domain/reports/reports.js'
import { CashFlowQuery, CashFlowReport, SummaryQuery, SummaryReport } from '../../domain/reports/schemas.js'
import { envelope } from '../../domain/schemas.js'
import { budgetReport } from '../../domain/budgets/report.js'
import { BudgetReport, BudgetReportQuery } from '../../domain/budgets/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { reportsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const reportsApi = {
  cashFlow: createRoute({
    ...reportsPaths.cashFlow,
    summary: 'Cash flow: opening and closing balance, money in and out per period and cash-flow category (base currency)',
    security: accepts('read', 'reports'),
    request: { query: CashFlowQuery },
    responses: { 200: ok(envelope(CashFlowReport)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  summary: createRoute({
    ...reportsPaths.summary,
    summary: 'Financial summary: income, expenses, counts, breakdowns, top merchants, account balances (base currency)',
    security: accepts('read', 'reports'),
    request: { query: SummaryQuery },
    responses: { 200: ok(envelope(SummaryReport)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  budget: createRoute({
    ...reportsPaths.budget,
    summary: 'Budget against actual per category and period, and the spending of categories without a budget (base currency)',
    security: accepts('read', 'reports'),
    request: { query: BudgetReportQuery },
    responses: { 200: ok(envelope(BudgetReport)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function reportRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(reportsApi.cashFlow, async (c) =>
      c.json({ success: true as const, data: await cashFlowReport(store, c.get('actor').companyId, c.req.valid('query'), now()) }, 200),
    )
    .openapi(reportsApi.summary, async (c) =>
      c.json({ success: true as const, data: await summaryReport(store, c.get('actor').companyId, c.req.valid('query'), now()) }, 200),
    )
    .openapi(reportsApi.budget, async (c) =>
      c.json({ success: true as const, data: await budgetReport(store, c.get('actor').companyId, c.req.valid('query'), now()) }, 200),
    )
}
