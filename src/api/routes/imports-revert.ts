/**
 * POST /api-v1/imports/{id}/revert (docs/api.md, "Imports"): a batch's rows removed as one audited
 * change, or with dry_run what would go. Added to the imports router by `withRevertRoutes`.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { requestRevert } from '../../domain/approvals/steps.js'
import { RevertImportRequest, RevertResult } from '../../domain/imports/revert-schemas.js'
import { envelope, IdParam } from '../../domain/schemas.js'
import type { AppDeps, AppEnv } from '../env.js'
import { ERRORS, jsonBody, ok, accepts } from '../openapi.js'
import { doneOrProposed, PROPOSED } from '../proposed.js'
import { importsRevertPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const importsRevertApi = {
  revert: createRoute({
    ...importsRevertPaths.revert,
    summary:
      'Revert an import batch: its rows deleted, its pairings undone, in one audited change (dry_run: what would go); under an approval policy, 202 with the proposal. 409 naming the rows of a closed month, or changed by hand without include_edited',
    security: accepts('write', 'transactions'),
    request: { params: IdParam, body: jsonBody(RevertImportRequest) },
    responses: {
      200: ok(envelope(RevertResult)),
      202: PROPOSED,
      400: ERRORS[400],
      401: ERRORS[401],
      403: ERRORS[403],
      404: ERRORS[404],
      409: ERRORS[409],
    },
  }),
}

export function withRevertRoutes<R extends OpenAPIHono<AppEnv>>(app: R, deps: AppDeps) {
  const { store, now } = deps
  return app.openapi(importsRevertApi.revert, async (c) => {
    const r = await requestRevert(store, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), now())
    return doneOrProposed(c, r)
  })
}
