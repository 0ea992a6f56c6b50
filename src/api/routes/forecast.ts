/** The cash forecast (docs/forecast.md): a read sent as a POST, its scenario the body. Scope `read` or `reports`. */
import { createRoute } from '@hono/zod-openapi'
import { forecast } from '../../domain/recurring/forecast.js'
import { Forecast, ForecastRequest } from '../../domain/recurring/forecast-schemas.js'
import { envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router, accepts } from '../openapi.js'
import { forecastPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const forecastApi = {
  run: createRoute({
    ...forecastPaths.run,
    summary: 'A daily balance forecast: recorded transactions, accepted recurring items, unspent budgets and a scenario (base currency)',
    security: accepts('read', 'reports'),
    request: { body: jsonBody(ForecastRequest) },
    responses: { 200: ok(envelope(Forecast)), 400: ERRORS[400], 401: ERRORS[401], 403: ERRORS[403], 404: ERRORS[404] },
  }),
}

export function forecastRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router().openapi(forecastApi.run, async (c) =>
    c.json({ success: true as const, data: await forecast(store, c.get('actor').companyId, c.req.valid('json'), now()) }, 200),
  )
}
