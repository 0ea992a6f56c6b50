import { createRoute } from '@hono/zod-openapi'
import { issueToken } from '../../domain/api-keys/auth.js'
import { TokenRequest, TokenResponse } from '../../domain/api-keys/schemas.js'
import { envelope } from '../../domain/schema-common.js'
import type { AppDeps } from '../env.js'
import { ERRORS, jsonBody, ok, router } from '../openapi.js'

export function authRoutes(deps: AppDeps) {
  return router().openapi(
    createRoute({
      method: 'post',
      path: '/auth/token',
      summary: 'Exchange an email and password for an access token (JWT)',
      request: { body: jsonBody(TokenRequest) },
      responses: { 200: ok(envelope(TokenResponse)), 400: ERRORS[400], 401: ERRORS[401] },
    }),
    async (c) => {
      const { email, password } = c.req.valid('json')
      return c.json({ success: true as const, data: await issueToken(deps.store, email, password, deps.now()) }, 200)
    },
  )
}
