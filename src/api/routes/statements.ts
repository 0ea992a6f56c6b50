/**
 * Bank statements (docs/api.md section 5). POST takes the file as multipart/form-data or as JSON with
 * the file in base64, answers 201 with the statement `pending`, and processes it off the request
 * path (domain/statements/jobs.ts); GET shows its status, GET .../file its original file. Scopes: `write` to upload, `read` to read.
 */
import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { AppError } from '../../kernel/errors.js'
import { formatNames } from '../../kernel/statement-formats.js'
import { envelope, IdParam, listEnvelope, Transaction } from '../../domain/schemas.js'
import { recordStatementBatch } from '../../domain/imports/batches.js'
import { ImportBatchDetail } from '../../domain/imports/schemas.js'
import { reviewStatementUpload } from '../../domain/imports/statement-review.js'
import { isProcessing } from '../../domain/statements/inflight.js'
import { statementOriginal } from '../../domain/statements/original.js'
import { startStatementJob } from '../../domain/statements/jobs.js'
import {
  MAX_STATEMENT_FILE,
  Statement,
  StatementListQuery,
  StatementTransactionsQuery,
  StatementUploadForm,
  StatementUploadJson,
} from '../../domain/statements/schemas.js'
import {
  createStatement,
  getStatement,
  listStatements,
  statementTransactions,
  type StatementUpload,
} from '../../domain/statements/statements.js'
import { zodError } from '../../domain/validation.js'
import type { AppDeps, AppEnv } from '../env.js'
import { reportInternalError } from '../errors.js'
import { accepts, ERRORS, fileResponse, ok, router } from '../openapi.js'

const PATH = '/api-v1/statements'
/** Base64 of a 20 MiB file, with room for line breaks. */
const MAX_BASE64 = Math.ceil(MAX_STATEMENT_FILE / 3) * 4 + 64 * 1024

const tooLarge = (size: string) =>
  new AppError('payload_too_large', `the statement file is ${size}: at most 20 MiB (${MAX_STATEMENT_FILE} bytes) are accepted`)

function mediaType(c: Context<AppEnv>): 'form' | 'json' {
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'multipart/form-data') return 'form'
  if (/^application\/(.+\+)?json$/.test(type)) return 'json'
  throw new AppError(
    'unsupported_media_type',
    'send the statement as multipart/form-data (parts: file, bank_account_id, ...) or as JSON (bank_account_id, file_name, content_base64, ...)',
  )
}

async function fromForm(c: Context<AppEnv>): Promise<StatementUpload> {
  let raw: Record<string, unknown>
  try {
    raw = await c.req.parseBody({ all: true })
  } catch {
    throw new AppError('validation_error', 'the multipart/form-data body cannot be read', {
      details: [{ path: '(body)', message: 'is not valid multipart/form-data' }],
    })
  }
  const parsed = StatementUploadForm.safeParse({ ...raw })
  if (!parsed.success) throw zodError(parsed.error, 'form')
  const f = parsed.data
  if (f.file.size > MAX_STATEMENT_FILE) throw tooLarge(`${f.file.size} bytes`)
  const name = f.file_name ?? ((f.file as { name?: string }).name || 'statement')
  return {
    bankAccountId: f.bank_account_id,
    fileName: name,
    format: f.format,
    bytes: new Uint8Array(await f.file.arrayBuffer()),
    exchangeRate: f.exchange_rate,
    dateFormat: f.date_format,
    encoding: f.encoding,
    delimiter: f.delimiter,
    accountNumber: f.account_number,
    map: f.map,
    where: f.where,
    decimalComma: f.decimal_comma,
    skipLines: f.skip_lines,
    noHeader: f.no_header,
    noLayout: f.no_layout,
    invertSign: f.invert_sign,
    noBalanceCheck: f.no_balance_check,
    review: f.review,
  }
}

async function fromJson(c: Context<AppEnv>): Promise<StatementUpload> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new AppError('invalid_json', 'the request body is not valid JSON')
  }
  const parsed = StatementUploadJson.safeParse(body)
  if (!parsed.success) throw zodError(parsed.error, 'body')
  const j = parsed.data
  const b64 = j.content_base64.replace(/\s+/g, '')
  if (b64.length > MAX_BASE64) throw tooLarge(`about ${Math.floor((b64.length * 3) / 4)} bytes`)
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64))
    throw new AppError('validation_error', 'content_base64: is not base64', {
      details: [{ path: 'content_base64', message: 'is not base64' }],
    })
  return {
    bankAccountId: j.bank_account_id,
    fileName: j.file_name,
    format: j.format,
    bytes: new Uint8Array(Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64')),
    exchangeRate: j.exchange_rate,
    dateFormat: j.date_format,
    encoding: j.encoding,
    delimiter: j.delimiter,
    accountNumber: j.account_number,
    map: j.map,
    where: j.where,
    decimalComma: j.decimal_comma,
    skipLines: j.skip_lines,
    noHeader: j.no_header,
    noLayout: j.no_layout,
    invertSign: j.invert_sign,
    noBalanceCheck: j.no_balance_check,
    review: j.review,
  }
}

export function statementRoutes(deps: AppDeps) {
  const { store, now, statementWorkerThreshold } = deps
  const running = (id: string) => isProcessing(store, id)
  const r = router()
  // The upload takes two media types; it is validated in the handler (one schema per type) and
  // declared here for the OpenAPI document.
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: PATH,
    summary: `Upload a bank statement file (${formatNames()}; at most 20 MiB): answered at once with the statement pending, processed in the background`,
    security: accepts('write'),
    request: {
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: StatementUploadForm }, 'application/json': { schema: StatementUploadJson } },
      },
    },
    responses: {
      200: ok(envelope(ImportBatchDetail), 'review: true: the upload waits pending as an import batch, no statement yet'),
      201: ok(envelope(Statement), 'Created (status pending: poll GET /api-v1/statements/{id})'),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
      413: ERRORS[413],
      415: ERRORS[415],
      429: ERRORS[429],
    },
  })
  r.post(PATH, async (c) => {
    const upload = mediaType(c) === 'form' ? await fromForm(c) : await fromJson(c)
    if (upload.review) {
      const batch = await reviewStatementUpload(store, c.get('actor'), upload, now(), {
        workerThreshold: statementWorkerThreshold,
        running,
      })
      return c.json({ success: true as const, data: batch }, 200)
    }
    const { statement, job } = await createStatement(store, c.get('actor'), upload, now(), running)
    const batch = await recordStatementBatch(store, c.get('actor'), statement, upload, now())
    const requestId = c.get('requestId')
    startStatementJob(store, job, { now, report: (err) => reportInternalError(err, requestId), workerThreshold: statementWorkerThreshold })
    return c.json({ success: true as const, data: { ...statement, batch_id: batch.id } }, 201)
  })
  r.openAPIRegistry.registerPath({
    method: 'get',
    path: `${PATH}/{id}/file`,
    summary:
      "The statement's original file, as uploaded (application/octet-stream); with as=base64, JSON (file_name, sha256, content_base64). 404 for a statement uploaded before finctl kept its file",
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: { description: 'the bytes' }, 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  })
  r.get(`${PATH}/:id/file`, async (c) => {
    const f = await statementOriginal(store, c.get('actor').companyId, c.req.param('id'))
    return fileResponse(c, f.bytes, 'application/octet-stream', { file_name: f.fileName, sha256: f.sha256 })
  })
  return r
    .openapi(
      createRoute({
        method: 'get',
        path: PATH,
        summary: 'List bank statements, newest first',
        security: accepts('read'),
        request: { query: StatementListQuery },
        responses: { 200: ok(listEnvelope(Statement)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
      }),
      async (c) => {
        const page = await listStatements(store, c.get('actor').companyId, c.req.valid('query'), now(), running)
        return c.json({ success: true as const, ...page }, 200)
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: `${PATH}/{id}`,
        summary: 'A bank statement and its processing status',
        security: accepts('read'),
        request: { params: IdParam },
        responses: { 200: ok(envelope(Statement)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) =>
        c.json(
          { success: true as const, data: await getStatement(store, c.get('actor').companyId, c.req.valid('param').id, now(), running) },
          200,
        ),
    )
    .openapi(
      createRoute({
        method: 'get',
        path: `${PATH}/{id}/transactions`,
        summary: "A statement's transactions: created from its lines or reconciled with them (the filters of GET /transactions)",
        security: accepts('read'),
        request: { params: IdParam, query: StatementTransactionsQuery },
        responses: { 200: ok(listEnvelope(Transaction)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
      }),
      async (c) => {
        const page = await statementTransactions(store, c.get('actor').companyId, c.req.valid('param').id, c.req.valid('query'))
        return c.json({ success: true as const, ...page }, 200)
      },
    )
}
