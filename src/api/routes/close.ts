/**
 * Closing the books (docs/api.md section 8): the month-end status (scope `read`), closing a month
 * (a login or a key with the `close` scope), reopening one (a login with `close`) and the
 * record of both.
 */
import { createRoute, z } from '@hono/zod-openapi'
import { closeMonth, listCloses } from '../../domain/closing/close.js'
import { requestReopen } from '../../domain/approvals/steps.js'
import { doneOrProposed, PROPOSED } from '../proposed.js'
import { attachExport, verifyClose } from '../../domain/closing/records.js'
import { closeStatus } from '../../domain/closing/status.js'
import { packContents } from '../../domain/closing/pack.js'
import { signPackManifest } from '../../domain/closing/pack-check.js'
import { closePolicy, setClosePolicy } from '../../domain/closing/document-policy.js'
import { ClosePolicy, ClosePolicyRequest } from '../../domain/closing/document-policy-schemas.js'
import { PackContents, PackSignature, PackSignRequest } from '../../domain/closing/pack-schemas.js'
import {
  CloseExport,
  CloseExportRequest,
  CloseMonthParams,
  CloseRecord,
  CloseRequest,
  CloseStatus,
  CloseStatusQuery,
  CloseVerification,
  ReopenRequest,
} from '../../domain/closing/schemas.js'
import { envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { closePaths } from '../paths.js'

const CloseResult = z.object({ record: CloseRecord, status: CloseStatus }).openapi('CloseResult')

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const closeApi = {
  status: createRoute({
    ...closePaths.status,
    summary: "A month's readiness to close: per account the statement's closing balance beside the book balance, and what is still open",
    security: accepts('read'),
    request: { query: CloseStatusQuery },
    responses: { 200: ok(envelope(CloseStatus)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  policy: createRoute({
    ...closePaths.policy,
    summary:
      "The close's document policy: per currency the amount from which a transaction needs a document, and whether close refuses without",
    security: accepts('read', 'users'),
    responses: { 200: ok(envelope(ClosePolicy)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  setPolicy: createRoute({
    ...closePaths.setPolicy,
    summary: "Set the close's document policy (the owner): the currencies given change, the others stay",
    security: accepts('users'),
    request: { body: jsonBody(ClosePolicyRequest) },
    responses: { 200: ok(envelope(ClosePolicy)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
  history: createRoute({
    ...closePaths.history,
    summary: 'Every close and reopen of a month, the latest first',
    security: accepts('read'),
    responses: { 200: ok(envelope(z.array(CloseRecord))), 401: ERRORS[401], 403: ERRORS[403] },
  }),
  month: createRoute({
    ...closePaths.month,
    summary: "Close a month: the company's lock date becomes its last day (409 not_ready unless force with a reason)",
    security: accepts('close'),
    request: { params: CloseMonthParams, body: jsonBody(CloseRequest) },
    responses: { 200: ok(envelope(CloseResult)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 409: ERRORS[409] },
  }),
  reopen: createRoute({
    ...closePaths.reopen,
    summary:
      'Reopen a closed month (a login with close: owner, accountant): the lock date goes back to the end of the month before, audited with the reason. Under an approval policy: 202 with the proposal (write or close may propose)',
    security: accepts('close', 'write'),
    request: { params: CloseMonthParams, body: jsonBody(ReopenRequest) },
    responses: {
      200: ok(envelope(CloseRecord)),
      202: PROPOSED,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      409: ERRORS[409],
    },
  }),
  attachExport: createRoute({
    ...closePaths.attachExport,
    summary: "Record an export written for a closed month (format, file name, SHA-256) on the month's latest close, for verify --close",
    security: accepts('close'),
    request: { params: CloseMonthParams, body: jsonBody(CloseExportRequest) },
    responses: {
      201: ok(envelope(CloseExport)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  verify: createRoute({
    ...closePaths.verify,
    summary:
      "Check a month's latest close against today: the audit chain still leads to the head recorded then, the month still closed, its exports",
    security: accepts('read'),
    request: { params: CloseMonthParams },
    responses: { 200: ok(envelope(CloseVerification)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
  pack: createRoute({
    ...closePaths.pack,
    summary:
      "What the auditor's pack of a closed month holds: its latest close with figures, statements, statement lines and their transactions, linked documents, audit entries",
    security: accepts('read'),
    request: { params: CloseMonthParams },
    responses: {
      200: ok(envelope(PackContents)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
  signPack: createRoute({
    ...closePaths.signPack,
    summary:
      "Sign a pack's manifest with the company's Ed25519 key (made on first use): only a manifest of the month's latest close, still closed, with its figures",
    security: accepts('close'),
    request: { params: CloseMonthParams, body: jsonBody(PackSignRequest) },
    responses: {
      200: ok(envelope(PackSignature)),
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
}

export function closeRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router()
    .openapi(closeApi.status, async (c) =>
      c.json({ success: true as const, data: await closeStatus(store, c.get('actor').companyId, c.req.valid('query').month, now()) }, 200),
    )
    .openapi(closeApi.policy, async (c) =>
      c.json({ success: true as const, data: await closePolicy(store, c.get('actor').companyId) }, 200),
    )
    .openapi(closeApi.setPolicy, async (c) =>
      c.json({ success: true as const, data: await setClosePolicy(store, c.get('actor'), c.req.valid('json'), now()) }, 200),
    )
    .openapi(closeApi.history, async (c) =>
      c.json({ success: true as const, data: await listCloses(store, c.get('actor').companyId) }, 200),
    )
    .openapi(closeApi.month, async (c) =>
      c.json(
        { success: true as const, data: await closeMonth(store, c.get('actor'), c.req.valid('param').month, c.req.valid('json'), now()) },
        200,
      ),
    )
    .openapi(closeApi.reopen, async (c) => {
      const r = await requestReopen(store, c.get('actor'), c.req.valid('param').month, c.req.valid('json').reason, now())
      return doneOrProposed(c, r)
    })
    .openapi(closeApi.attachExport, async (c) =>
      c.json(
        {
          success: true as const,
          data: await attachExport(store, c.get('actor'), c.req.valid('param').month, c.req.valid('json'), now()),
        },
        201,
      ),
    )
    .openapi(closeApi.verify, async (c) =>
      c.json({ success: true as const, data: await verifyClose(store, c.get('actor').companyId, c.req.valid('param').month) }, 200),
    )
    .openapi(closeApi.pack, async (c) =>
      c.json({ success: true as const, data: await packContents(store, c.get('actor').companyId, c.req.valid('param').month) }, 200),
    )
    .openapi(closeApi.signPack, async (c) => {
      const bytes = new Uint8Array(Buffer.from(c.req.valid('json').manifest_base64, 'base64'))
      const data = await signPackManifest(store, c.get('actor'), c.req.valid('param').month, bytes, now())
      return c.json({ success: true as const, data }, 200)
    })
}
