/** Transactions (spec 4.3, API.md section 4). */
import { createRoute, z } from '@hono/zod-openapi'
import { createTransaction, createTransactionIdempotent } from '../../domain/transactions.js'
import { CreateTransactionRequest, Transaction, envelope } from '../../domain/schemas.js'
import type { AppDeps } from '../env.js'
import { ERRORS, SECURITY, jsonBody, ok, router } from '../openapi.js'

export function transactionRoutes(deps: AppDeps) {
  const { store, now } = deps
  return router().openapi(
    createRoute({
      method: 'post',
      path: '/api-v1/transactions',
      summary: 'Create a transaction',
      security: SECURITY,
      request: {
        body: jsonBody(CreateTransactionRequest),
        headers: z.object({ 'idempotency-key': z.string().optional().openapi({ description: 'replays the first answer for 24 h' }) }),
      },
      responses: {
        201: ok(envelope(Transaction), 'Created'),
        400: ERRORS[400],
        401: ERRORS[401],
        403: ERRORS[403],
        404: ERRORS[404],
        409: ERRORS[409],
        429: ERRORS[429],
      },
    }),
    async (c) => {
      const idempotencyKey = c.req.header('idempotency-key')
      if (idempotencyKey !== undefined) {
        const r = await createTransactionIdempotent(store, c.get('actor'), c.req.valid('json'), idempotencyKey, now())
        if (r.replayed) c.header('Idempotent-Replayed', 'true')
        return c.json({ success: true as const, data: r.body }, 201)
      }
      const data = await createTransaction(store, c.get('actor'), c.req.valid('json'), now())
      return c.json({ success: true as const, data }, 201)
    },
  )
}
