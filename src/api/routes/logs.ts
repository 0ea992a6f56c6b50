/**
 * The request log (docs/api.md section 7, docs/logs.md): GET /api-v1/logs, the usage records of the
 * company's keys after a cursor, with `wait` a long poll. Scope `read`.
 */
import { createRoute } from '@hono/zod-openapi'
import { RequestLogPage, RequestLogQuery, waitForRequestLog } from '../../domain/api-keys/request-log.js'
import type { AppDeps } from '../env.js'
import { ERRORS, ok, router, accepts } from '../openapi.js'
import { requestWaker } from '../waker.js'
import { logsPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const logsApi = {
  list: createRoute({
    ...logsPaths.list,
    summary: "The requests made with the company's keys, oldest first, after a cursor; `wait` holds the answer until one comes",
    security: accepts('read'),
    request: { query: RequestLogQuery },
    responses: { 200: ok(RequestLogPage), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403] },
  }),
}

export function logRoutes(deps: AppDeps) {
  return router().openapi(logsApi.list, async (c) => {
    // This process's records of requests already answered are written first: a cursor taken now covers them.
    await deps.usage.settle()
    return c.json(await waitForRequestLog(deps.store, c.get('actor').companyId, c.req.valid('query'), requestWaker(deps, c)), 200)
  })
}
