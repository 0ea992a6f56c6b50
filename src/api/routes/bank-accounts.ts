/** Bank accounts (API.md section 5): create, list, show. */
import { createRoute } from '@hono/zod-openapi'
import { createBankAccount, getBankAccount, listBankAccounts } from '../../domain/bank-accounts.js'
import { BankAccount, BankAccountListQuery, CreateBankAccountRequest, IdParam, envelope, listEnvelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, SECURITY, jsonBody, ok, router } from '../openapi.js'

export function bankAccountRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(
      createRoute({
        method: 'get',
        path: '/api-v1/bank-accounts',
        summary: 'List bank accounts',
        security: SECURITY,
        request: { query: BankAccountListQuery },
        responses: { 200: ok(listEnvelope(BankAccount)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
      }),
      async (c) => {
        const data = await listBankAccounts(store, c.get('actor').companyId, c.req.valid('query'))
        // A company holds few accounts: one page holds them all.
        const pagination = { limit: Math.max(data.length, 1), next_cursor: null, has_more: false, total: data.length }
        return c.json({ success: true as const, data, pagination }, 200)
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/api-v1/bank-accounts',
        summary: 'Create a bank account',
        security: SECURITY,
        request: { body: jsonBody(CreateBankAccountRequest) },
        responses: { 201: ok(envelope(BankAccount), 'Created'), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
      }),
      async (c) => {
        const data = await createBankAccount(store, c.get('actor'), c.req.valid('json'), now())
        return c.json({ success: true as const, data }, 201)
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/api-v1/bank-accounts/{id}',
        summary: 'Bank account details',
        security: SECURITY,
        request: { params: IdParam },
        responses: { 200: ok(envelope(BankAccount)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) => {
        const data = await getBankAccount(store, c.get('actor').companyId, c.req.valid('param').id)
        return c.json({ success: true as const, data }, 200)
      },
    )
}
