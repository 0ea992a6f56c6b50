/**
 * Transactions (docs/service-interface.md section 4.3, docs/api.md section 4): the reads. The writes
 * are `transaction-writes.ts`, a group of their own that loads with the first write (app.ts).
 */
import { createRoute, z } from '@hono/zod-openapi'
import { listTransactions } from '../../domain/transactions/queries.js'
import { accountNames } from '../../domain/accounts/lookup.js'
import { AppError } from '../../kernel/errors.js'
import { IdParam, Transaction, TransactionDetail, TransactionListQuery, envelope, listEnvelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { jsonAnswer } from '../json-answer.js'
import { transactionsPaths } from '../paths.js'

/** A transaction's detail (its account, statement and history) is read by the code of its updates. */
const updating = () => import('../../domain/transactions/updates.js')

/** A page of transactions; with `include_account_names=true`, the names of the accounts its rows name. */
const TransactionPage = listEnvelope(Transaction).extend({
  account_names: z
    .record(z.string(), z.string())
    .optional()
    .openapi({ description: "with include_account_names=true: each bank account the page's rows name, its id to its name" }),
})

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const transactionsApi = {
  list: createRoute({
    ...transactionsPaths.list,
    summary: 'List transactions (filters, sort, keyset cursor)',
    security: accepts('read', 'transactions'),
    request: { query: TransactionListQuery },
    responses: { 200: ok(TransactionPage), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...transactionsPaths.get,
    summary: 'A transaction with its account, statement and history',
    security: accepts('read', 'transactions'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(TransactionDetail)), 404: ERRORS[404] },
  }),
}

export function transactionRoutes(deps: AppDeps) {
  const { store } = deps
  return router()
    .openapi(transactionsApi.list, async (c) => {
      const q = c.req.valid('query')
      const actor = c.get('actor')
      // The names are the bank accounts' own: asked of a credential that may read those (their list takes read).
      if (q.include_account_names && !actor.scopes.includes('read'))
        throw new AppError('forbidden', 'include_account_names needs the read scope (the bank accounts are read with it)')
      const page = await listTransactions(store, actor.companyId, q)
      const named = q.include_account_names
        ? {
            account_names: await accountNames(
              store,
              actor.companyId,
              page.data.map((t) => t.bank_account_id),
            ),
          }
        : {}
      return jsonAnswer(c, { success: true as const, ...page, ...named }, (body) => c.json(body, 200))
    })
    .openapi(transactionsApi.get, async (c) => {
      const { getTransactionDetail } = await updating()
      return c.json(
        { success: true as const, data: await getTransactionDetail(store, c.get('actor').companyId, c.req.valid('param').id) },
        200,
      )
    })
}
