import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { issueToken } from '../../domain/api-keys/auth.js'
import { LOGIN_LIMITS } from '../../domain/api-keys/login-limits.js'
import { AppError } from '../../kernel/errors.js'
import { TokenRequest, TokenResponse } from '../../domain/api-keys/schemas.js'
import { AcceptedInvitation, AcceptInvitationRequest } from '../../domain/users/schemas.js'
import { acceptInvitation } from '../../domain/users/users.js'
import { envelope } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router } from '../openapi.js'
import { authPaths } from '../paths.js'

/** The routes of this group, as the client reads them (src/client/route-call.ts). */
export const authApi = {
  token: createRoute({
    ...authPaths.token,
    summary: 'Exchange an email and password for an access token (JWT)',
    request: { body: jsonBody(TokenRequest) },
    description: `At most ${LOGIN_LIMITS.perEmail} failed attempts a minute per email and ${LOGIN_LIMITS.perAddress} attempts per client address; then 429 with Retry-After.`,
    responses: { 200: ok(envelope(TokenResponse)), 400: ERRORS[400], 401: ERRORS[401], 429: ERRORS[429] },
  }),
  acceptInvite: createRoute({
    ...authPaths.acceptInvite,
    summary: "Accept an invitation (its token, shown once to the inviter) with the new user's password: an access token",
    request: { body: jsonBody(AcceptInvitationRequest) },
    responses: { 200: ok(envelope(AcceptedInvitation)), 400: ERRORS[400], 401: ERRORS[401], 409: ERRORS[409] },
  }),
}

export function authRoutes(deps: AppDeps) {
  return router()
    .openapi(authApi.token, async (c) => {
      const { email, password } = c.req.valid('json')
      const address = clientAddress(c)
      try {
        return c.json({ success: true as const, data: await issueToken(deps.store, email, password, deps.now(), address) }, 200)
      } catch (e) {
        if (e instanceof AppError) deps.loginFailed?.({ email: email.toLowerCase(), client_address: address, status: e.status })
        throw e
      }
    })
    .openapi(authApi.acceptInvite, async (c) => {
      const { token, password } = c.req.valid('json')
      const data = await acceptInvitation(deps.store, token, password, deps.now())
      c.header('Cache-Control', 'no-store')
      return c.json({ success: true as const, data }, 200)
    })
}

/** The peer's address on `finctl serve` (Node's socket); undefined on the embedded core, which has no peer. */
function clientAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress
}
