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
import type { AppDeps, AppEnv } from '../env.js'
import { readUpload } from '../upload.js'
import { reportInternalError } from '../errors.js'
import { ERRORS, fileResponse, ok, router, accepts } from '../openapi.js'
import { routerPath, statementsPaths } from '../paths.js'
import type { RouteConfig } from '@hono/zod-openapi'

const _PATH = '/api-v1/statements'
/** Base64 of a 20 MiB file, with room for line breaks. */
const MAX_BASE64 = Math.ceil(MAX_STATEMENT_FILE / 3) * 4 + 64 * 1024

const UPLOAD = {
  form: StatementUploadForm,
  json: StatementUploadJson,
  unsupported:
    'send the statement as multipart/form-data (parts: file, bank_account_id, ...) or as JSON (bank_account_id, file_name, content_base64, ...)',
  defaultName: 'statement',
  maxBytes: MAX_STATEMENT_FILE,
  tooLarge: (size: number, about: boolean) =>
    new AppError(
      'payload_too_large',
      `the statement file is ${about ? 'about ' : ''}${size} bytes: at most 20 MiB (${MAX_STATEMENT_FILE} bytes) are accepted`,
    ),
  maxBase64: MAX_BASE64,
}

async function readStatement(c: Context<AppEnv>): Promise<StatementUpload> {
  const { fileName, bytes, fields: f } = await readUpload(c, UPLOAD)
  return {
    bankAccountId: f.bank_account_id,
    fileName,
    format: f.format,
    bytes,
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

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const statementsApi = {
  upload: {
    ...statementsPaths.upload,
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
  } satisfies RouteConfig,
  file: {
    ...statementsPaths.file,
    summary:
      "The statement's original file, as uploaded (application/octet-stream); with as=base64, JSON (file_name, sha256, content_base64). 404 for a statement uploaded before finctl kept its file",
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: { description: 'the bytes' }, 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  } satisfies RouteConfig,
  list: createRoute({
    ...statementsPaths.list,
    summary: 'List bank statements, newest first',
    security: accepts('read'),
    request: { query: StatementListQuery },
    responses: { 200: ok(listEnvelope(Statement)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  get: createRoute({
    ...statementsPaths.get,
    summary: 'A bank statement and its processing status',
    security: accepts('read'),
    request: { params: IdParam },
    responses: { 200: ok(envelope(Statement)), 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  transactions: createRoute({
    ...statementsPaths.transactions,
    summary: "A statement's transactions: created from its lines or reconciled with them (the filters of GET /transactions)",
    security: accepts('read'),
    request: { params: IdParam, query: StatementTransactionsQuery },
    responses: { 200: ok(listEnvelope(Transaction)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function statementRoutes(deps: AppDeps) {
  const { store, now, statementWorkerThreshold } = deps
  const running = (id: string) => isProcessing(store, id)
  const r = router()
  // The upload takes two media types; it is validated in the handler (one schema per type) and
  // declared here for the OpenAPI document.
  r.openAPIRegistry.registerPath(statementsApi.upload)
  r.post(statementsApi.upload.path, async (c) => {
    const upload = await readStatement(c)
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
  r.openAPIRegistry.registerPath(statementsApi.file)
  r.get(routerPath(statementsApi.file.path), async (c) => {
    const f = await statementOriginal(store, c.get('actor').companyId, c.req.param('id'))
    return fileResponse(c, f.bytes, 'application/octet-stream', { file_name: f.fileName, sha256: f.sha256 })
  })
  return r
    .openapi(statementsApi.list, async (c) => {
      const page = await listStatements(store, c.get('actor').companyId, c.req.valid('query'), now(), running)
      return c.json({ success: true as const, ...page }, 200)
    })
    .openapi(statementsApi.get, async (c) =>
      c.json(
        { success: true as const, data: await getStatement(store, c.get('actor').companyId, c.req.valid('param').id, now(), running) },
        200,
      ),
    )
    .openapi(statementsApi.transactions, async (c) => {
      const page = await statementTransactions(store, c.get('actor').companyId, c.req.valid('param').id, c.req.valid('query'))
      return c.json({ success: true as const, ...page }, 200)
    })
}
