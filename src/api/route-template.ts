import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'

/** A route as usage records and the access log name it: hono's `/x/:id` written `/x/{id}`, as in the OpenAPI document. */
export function endpointTemplate(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}')
}

/**
 * The route a request matched, as `METHOD /x/{id}` (its OpenAPI operation), or null when none did.
 * Middleware is mounted for every method ('ALL'); the first route of a method is the one that answers.
 */
export function matchedRoute(c: Context): string | null {
  const route = matchedRoutes(c).find((r) => r.method !== 'ALL')
  return route ? `${route.method} ${endpointTemplate(route.path)}` : null
}
