/**
 * Exchange rates (docs/api.md section 5): list, set, delete one, import a file (the ECB's
 * eurofxref-hist.csv or a plain date,currency,rate CSV) as multipart/form-data or JSON with the file
 * in base64. Scopes: `read` to list, `write` to change or import.
 */
import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { AppError } from '../../kernel/errors.js'
import { envelope, listEnvelope } from '../../domain/schemas.js'
import { deleteRate, importRates, listRates, setRate } from '../../domain/rates/rates.js'
import {
  DeletedExchangeRate,
  ExchangeRate,
  ExchangeRateListQuery,
  ExchangeRateParams,
  RatesImportForm,
  RatesImportJson,
  RatesImportResult,
  SetExchangeRateRequest,
} from '../../domain/rates/schemas.js'
import type { RateFileFormat } from '../../import/rates.js'
import type { AppDeps, AppEnv } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { exchangeRatesPaths } from '../paths.js'
import { readUpload } from '../upload.js'
import type { RouteConfig } from '@hono/zod-openapi'

const MAX_RATES_FILE = 20 * 1024 * 1024

const UPLOAD = {
  form: RatesImportForm,
  json: RatesImportJson,
  unsupported: 'send the rates file as multipart/form-data (parts: file, format) or as JSON (file_name, format, content_base64)',
  defaultName: 'rates.csv',
  maxBytes: MAX_RATES_FILE,
  tooLarge: (size: number) => new AppError('payload_too_large', `the rates file is ${size} bytes: at most 20 MiB are accepted`),
}

async function readImport(c: Context<AppEnv>): Promise<{ name: string; text: string; format?: RateFileFormat }> {
  const { fileName, bytes, fields } = await readUpload(c, UPLOAD)
  return { name: fileName, text: new TextDecoder().decode(bytes), format: fields.format }
}

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const exchangeRatesApi = {
  import: {
    ...exchangeRatesPaths.import,
    summary:
      "Import a rates file: the ECB's eurofxref-hist.csv (rates per 1 EUR, converted to the base currency through EUR cross rates) or date,currency,rate; all or nothing",
    security: accepts('write'),
    request: {
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: RatesImportForm }, 'application/json': { schema: RatesImportJson } },
      },
    },
    responses: {
      200: ok(envelope(RatesImportResult)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      413: ERRORS[413],
      415: ERRORS[415],
      429: ERRORS[429],
    },
  } satisfies RouteConfig,
  list: createRoute({
    ...exchangeRatesPaths.list,
    summary: "The company's exchange rates to its base currency, by date then currency",
    security: accepts('read'),
    request: { query: ExchangeRateListQuery },
    responses: { 200: ok(listEnvelope(ExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  set: createRoute({
    ...exchangeRatesPaths.set,
    summary: 'Set (or replace) the rate of a currency on a date: units of the base currency per 1 unit',
    security: accepts('write'),
    request: { params: ExchangeRateParams, body: jsonBody(SetExchangeRateRequest) },
    responses: { 200: ok(envelope(ExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  delete: createRoute({
    ...exchangeRatesPaths.delete,
    summary: 'Delete the rate of a currency on a date (transactions converted at it keep their rate)',
    security: accepts('write'),
    request: { params: ExchangeRateParams },
    responses: { 200: ok(envelope(DeletedExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function exchangeRateRoutes(deps: AppDeps) {
  const { store, now } = deps
  const r = router()
  r.openAPIRegistry.registerPath(exchangeRatesApi.import)
  r.post(exchangeRatesApi.import.path, async (c) => {
    const file = await readImport(c)
    return c.json({ success: true as const, data: await importRates(store, c.get('actor'), file, now()) }, 200)
  })
  return r
    .openapi(exchangeRatesApi.list, async (c) =>
      c.json({ success: true as const, ...(await listRates(store, c.get('actor').companyId, c.req.valid('query'))) }, 200),
    )
    .openapi(exchangeRatesApi.set, async (c) => {
      const p = c.req.valid('param')
      return c.json(
        { success: true as const, data: await setRate(store, c.get('actor'), p.date, p.currency, c.req.valid('json'), now()) },
        200,
      )
    })
    .openapi(exchangeRatesApi.delete, async (c) => {
      const p = c.req.valid('param')
      return c.json({ success: true as const, data: await deleteRate(store, c.get('actor'), p.date, p.currency) }, 200)
    })
}
