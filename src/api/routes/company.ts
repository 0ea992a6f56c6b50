import { createRoute } from '@hono/zod-openapi'
import { getCompany } from '../../domain/accounts/companies.js'
import { packPublicKey } from '../../domain/closing/signing-key.js'
import { Company, envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { companyPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const companyApi = {
  get: createRoute({
    ...companyPaths.get,
    summary: "The caller's company",
    security: accepts('read', 'reports'),
    responses: { 200: ok(envelope(Company)), 401: ERRORS[401], 403: ERRORS[403] },
  }),
}

export function companyRoutes(deps: AppDeps) {
  return router().openapi(companyApi.get, async (c) => {
    const id = c.get('actor').companyId
    const data = { ...(await getCompany(deps.store, id)), pack_public_key: await packPublicKey(deps.store, id) }
    return c.json({ success: true as const, data }, 200)
  })
}
