/**
 * Exports (docs/api.md section 7): what `finctl export` reads, in date order, with exact rates (scope
 * `read`), and the company's accounts map of its chart exports (set with `write` or `close`).
 */
import { createRoute, z } from '@hono/zod-openapi'
import { deleteAccountsMap, setAccountsMap, storedAccountsMap } from '../../domain/exports/accounts-map.js'
import { AccountsMapFile, StoredAccountsMap } from '../../domain/exports/accounts-map-schema.js'
import { exportAsOf, exportGroups, exportTransactions, openingBalances } from '../../domain/exports/exports.js'
import {
  ExportAsOf,
  ExportAsOfQuery,
  ExportGroups,
  ExportGroupsQuery,
  ExportTransaction,
  ExportTransactionsQuery,
  OpeningBalances,
  OpeningBalancesQuery,
} from '../../domain/exports/schemas.js'
import { envelope, listEnvelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { exportsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const exportsApi = {
  transactions: createRoute({
    ...exportsPaths.transactions,
    summary: "A period's transactions in date order (void ones too), with the exact rate and base amount; total counted once",
    security: accepts('read'),
    request: { query: ExportTransactionsQuery },
    responses: { 200: ok(listEnvelope(ExportTransaction)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  openingBalances: createRoute({
    ...exportsPaths.openingBalances,
    summary: "Each account's opening balance and its non-void movements before a day, per currency, with their base amounts",
    security: accepts('read'),
    request: { query: OpeningBalancesQuery },
    responses: { 200: ok(envelope(OpeningBalances)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  groups: createRoute({
    ...exportsPaths.groups,
    summary: "A period's non-void transactions grouped by bank account and categories: counts and base sums, for a chart export",
    security: accepts('read'),
    request: { query: ExportGroupsQuery },
    responses: { 200: ok(envelope(ExportGroups)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  asOf: createRoute({
    ...exportsPaths.asOf,
    summary: 'A period as it stood at as_of: the transactions to leave out of the pages, and those to put in as they stood',
    security: accepts('read'),
    request: { query: ExportAsOfQuery },
    responses: { 200: ok(envelope(ExportAsOf)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  accountsMap: createRoute({
    ...exportsPaths.accountsMap,
    summary: "The company's accounts map (its chart of accounts for DATEV, SIE and SAF-T); map null when none is stored",
    security: accepts('read'),
    responses: { 200: ok(envelope(StoredAccountsMap)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  setAccountsMap: createRoute({
    ...exportsPaths.setAccountsMap,
    summary: "Replace the company's accounts map (scope write or close)",
    security: accepts('write', 'close'),
    request: { body: jsonBody(z.object({ map: AccountsMapFile }).strict()) },
    responses: { 200: ok(envelope(StoredAccountsMap)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  clearAccountsMap: createRoute({
    ...exportsPaths.clearAccountsMap,
    summary: "Remove the company's accounts map (scope write or close)",
    security: accepts('write', 'close'),
    responses: { 200: ok(envelope(z.object({ deleted: z.boolean() }))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
}

export function exportRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(exportsApi.transactions, async (c) => {
      const page = await exportTransactions(store, c.get('actor').companyId, c.req.valid('query'), now())
      return c.json({ success: true as const, ...page }, 200)
    })
    .openapi(exportsApi.openingBalances, async (c) =>
      c.json({ success: true as const, data: await openingBalances(store, c.get('actor').companyId, c.req.valid('query')) }, 200),
    )
    .openapi(exportsApi.groups, async (c) =>
      c.json({ success: true as const, data: await exportGroups(store, c.get('actor').companyId, c.req.valid('query')) }, 200),
    )
    .openapi(exportsApi.asOf, async (c) =>
      c.json({ success: true as const, data: await exportAsOf(store, c.get('actor').companyId, c.req.valid('query')) }, 200),
    )
    .openapi(exportsApi.accountsMap, async (c) =>
      c.json({ success: true as const, data: await storedAccountsMap(store, c.get('actor').companyId) }, 200),
    )
    .openapi(exportsApi.setAccountsMap, async (c) =>
      c.json({ success: true as const, data: await setAccountsMap(store, c.get('actor'), c.req.valid('json').map, now()) }, 200),
    )
    .openapi(exportsApi.clearAccountsMap, async (c) =>
      c.json({ success: true as const, data: { deleted: await deleteAccountsMap(store, c.get('actor')) } }, 200),
    )
}
