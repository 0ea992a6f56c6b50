/** The audit trail's chain (docs/audit.md): GET /api-v1/audit/verify. Scope `read`. */
import { createRoute } from '@hono/zod-openapi'
import { AuditVerification, verifyAudit } from '../../domain/transactions/verify.js'
import { envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { auditPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const auditApi = {
  verify: createRoute({
    ...auditPaths.verify,
    summary: "Walk the company's audit hash chain and name the first entry changed, removed or inserted",
    security: accepts('read'),
    responses: { 200: ok(envelope(AuditVerification)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
}

export function auditRoutes(deps: AppDeps) {
  const { store } = deps
  return router().openapi(auditApi.verify, async (c) =>
    c.json({ success: true as const, data: await verifyAudit(store, c.get('actor').companyId) }, 200),
  )
}
