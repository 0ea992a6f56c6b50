/** Exports (docs/api.md section 7): what `finctl export` reads, in date order, with exact rates. Scope `read`. */
import { createRoute } from '@hono/zod-openapi'
import { exportTransactions, openingBalances } from '../../domain/exports/exports.js'
import { ExportTransaction, ExportTransactionsQuery, OpeningBalances, OpeningBalancesQuery } from '../../domain/exports/schemas.js'
import { envelope, listEnvelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, SECURITY, ok, router } from '../openapi.js'

export function exportRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(
      createRoute({
        method: 'get',
        path: '/api-v1/exports/transactions',
        summary: "A period's transactions in date order (void ones too), with the exact rate and base amount; total counted once",
        security: SECURITY,
        request: { query: ExportTransactionsQuery },
        responses: { 200: ok(listEnvelope(ExportTransaction)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) => {
        const page = await exportTransactions(store, c.get('actor').companyId, c.req.valid('query'), now())
        return c.json({ success: true as const, ...page }, 200)
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/api-v1/exports/opening-balances',
        summary: "Each account's opening balance and its non-void movements before a day, per currency, with their base amounts",
        security: SECURITY,
        request: { query: OpeningBalancesQuery },
        responses: { 200: ok(envelope(OpeningBalances)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) =>
        c.json({ success: true as const, data: await openingBalances(store, c.get('actor').companyId, c.req.valid('query')) }, 200),
    )
}
