/** Bank accounts (docs/api.md section 5): create, list, show. */
import { createRoute } from '@hono/zod-openapi'
import {
  createBankAccount,
  deleteBankAccount,
  findBankAccount,
  getBankAccount,
  listBankAccounts,
} from '../../domain/accounts/bank-accounts.js'
import { listTransactions } from '../../domain/transactions/queries.js'
import {
  BankAccount,
  BankAccountListQuery,
  CreateBankAccountRequest,
  Deleted,
  IdParam,
  Transaction,
  TransactionListQuery,
  UpdateBankAccountRequest,
  envelope,
  listEnvelope,
} from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { bankAccountsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const bankAccountsApi = {
  list: createRoute({
    ...bankAccountsPaths.list,
    summary: 'List bank accounts',
    security: accepts('read'),
    request: { query: BankAccountListQuery },
    responses: { 200: ok(listEnvelope(BankAccount)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  create: createRoute({
    ...bankAccountsPaths.create,
    summary: 'Create a bank account',
    security: accepts('write'),
    request: { body: jsonBody(CreateBankAccountRequest) },
    responses: { 201: ok(envelope(BankAccount), 'Created'), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...bankAccountsPaths.get,
    summary: 'Bank account details',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(BankAccount)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  update: createRoute({
    ...bankAccountsPaths.update,
    summary: 'Update a bank account (name, institution, type, status)',
    security: accepts('write'),
    request: { params: IdParam, body: jsonBody(UpdateBankAccountRequest) },
    responses: { 200: ok(envelope(BankAccount)), 400: ERRORS[400], 404: ERRORS[404] },
  }),
  delete: createRoute({
    ...bankAccountsPaths.delete,
    summary: 'Delete a bank account that holds no transactions',
    security: accepts('write'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Deleted)), 404: ERRORS[404], 409: ERRORS[409] },
  }),
  transactions: createRoute({
    ...bankAccountsPaths.transactions,
    summary: "An account's transactions (the filters of GET /transactions)",
    security: accepts('read', 'transactions'),
    request: { params: IdParam, query: TransactionListQuery.omit({ bank_account_id: true, include_account_names: true }) },
    responses: { 200: ok(listEnvelope(Transaction)), 400: ERRORS[400], 404: ERRORS[404] },
  }),
}

export function bankAccountRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(bankAccountsApi.list, async (c) => {
      const data = await listBankAccounts(store, c.get('actor').companyId, c.req.valid('query'))
      // A company holds few accounts: one page holds them all.
      const pagination = { limit: Math.max(data.length, 1), next_cursor: null, has_more: false, total: data.length }
      return c.json({ success: true as const, data, pagination }, 200)
    })
    .openapi(bankAccountsApi.create, async (c) => {
      const data = await createBankAccount(store, c.get('actor'), c.req.valid('json'), now())
      return c.json({ success: true as const, data }, 201)
    })
    .openapi(bankAccountsApi.get, async (c) => {
      const data = await getBankAccount(store, c.get('actor').companyId, c.req.valid('param').id)
      return c.json({ success: true as const, data }, 200)
    })
    .openapi(bankAccountsApi.update, async (c) => {
      // Loaded with the first update, not with each list (a `tx list` table builds this group for the names).
      const { updateBankAccount } = await import('../../domain/accounts/account-updates.js')
      return c.json(
        {
          success: true as const,
          data: await updateBankAccount(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now()),
        },
        200,
      )
    })
    .openapi(bankAccountsApi.delete, async (c) =>
      c.json({ success: true as const, data: await deleteBankAccount(store, c.get('actor'), c.req.valid('param').id, now()) }, 200),
    )
    .openapi(bankAccountsApi.transactions, async (c) => {
      const companyId = c.get('actor').companyId
      const account = await findBankAccount(store, companyId, c.req.valid('param').id)
      const page = await listTransactions(store, companyId, { ...c.req.valid('query'), bank_account_id: account.id })
      return c.json({ success: true as const, ...page }, 200)
    })
}
