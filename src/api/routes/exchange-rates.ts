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
import { zodError } from '../../domain/validation.js'
import type { AppDeps, AppEnv } from '../env.js'
import { accepts, ERRORS, jsonBody, ok, router } from '../openapi.js'
import { RATES_IMPORT_PATH } from '../middleware/body-guard.js'

const PATH = '/api-v1/exchange-rates'
const MAX_RATES_FILE = 20 * 1024 * 1024

async function readImport(c: Context<AppEnv>): Promise<{ name: string; text: string; format?: RateFileFormat }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'multipart/form-data') {
    let raw: Record<string, unknown>
    try {
      raw = await c.req.parseBody({ all: true })
    } catch {
      throw new AppError('validation_error', 'the multipart/form-data body cannot be read', {
        details: [{ path: '(body)', message: 'is not valid multipart/form-data' }],
      })
    }
    const parsed = RatesImportForm.safeParse({ ...raw })
    if (!parsed.success) throw zodError(parsed.error, 'form')
    const f = parsed.data
    if (f.file.size > MAX_RATES_FILE)
      throw new AppError('payload_too_large', `the rates file is ${f.file.size} bytes: at most 20 MiB are accepted`)
    return {
      name: f.file_name ?? ((f.file as { name?: string }).name || 'rates.csv'),
      text: new TextDecoder().decode(await f.file.arrayBuffer()),
      format: f.format,
    }
  }
  if (!/^application\/(.+\+)?json$/.test(type))
    throw new AppError(
      'unsupported_media_type',
      'send the rates file as multipart/form-data (parts: file, format) or as JSON (file_name, format, content_base64)',
    )
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON')
  }
  const parsed = RatesImportJson.safeParse(body)
  if (!parsed.success) throw zodError(parsed.error, 'body')
  const j = parsed.data
  const b64 = j.content_base64.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64))
    throw new AppError('validation_error', 'content_base64: is not base64', {
      details: [{ path: 'content_base64', message: 'is not base64' }],
    })
  const bytes = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64')
  if (bytes.length > MAX_RATES_FILE)
    throw new AppError('payload_too_large', `the rates file is ${bytes.length} bytes: at most 20 MiB are accepted`)
  return { name: j.file_name, text: bytes.toString('utf8'), format: j.format }
}

export function exchangeRateRoutes(deps: AppDeps) {
  const { store, now } = deps
  const r = router()
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: RATES_IMPORT_PATH,
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
  })
  r.post(RATES_IMPORT_PATH, async (c) => {
    const file = await readImport(c)
    return c.json({ success: true as const, data: await importRates(store, c.get('actor'), file, now()) }, 200)
  })
  return r
    .openapi(
      createRoute({
        method: 'get',
        path: PATH,
        summary: "The company's exchange rates to its base currency, by date then currency",
        security: accepts('read'),
        request: { query: ExchangeRateListQuery },
        responses: { 200: ok(listEnvelope(ExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
      }),
      async (c) => c.json({ success: true as const, ...(await listRates(store, c.get('actor').companyId, c.req.valid('query'))) }, 200),
    )
    .openapi(
      createRoute({
        method: 'put',
        path: `${PATH}/{date}/{currency}`,
        summary: 'Set (or replace) the rate of a currency on a date: units of the base currency per 1 unit',
        security: accepts('write'),
        request: { params: ExchangeRateParams, body: jsonBody(SetExchangeRateRequest) },
        responses: { 200: ok(envelope(ExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
      }),
      async (c) => {
        const p = c.req.valid('param')
        return c.json(
          { success: true as const, data: await setRate(store, c.get('actor'), p.date, p.currency, c.req.valid('json'), now()) },
          200,
        )
      },
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: `${PATH}/{date}/{currency}`,
        summary: 'Delete the rate of a currency on a date (transactions converted at it keep their rate)',
        security: accepts('write'),
        request: { params: ExchangeRateParams },
        responses: { 200: ok(envelope(DeletedExchangeRate)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) => {
        const p = c.req.valid('param')
        return c.json({ success: true as const, data: await deleteRate(store, c.get('actor'), p.date, p.currency) }, 200)
      },
    )
}
