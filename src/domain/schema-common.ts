/** Schemas every route group uses: dates, ids, money input, the error and success envelopes. */
import { DIALECTS } from '../store/store.js'
import { z } from '@hono/zod-openapi'
import { isCurrency } from '../kernel/currencies.js'
import { isIsoDate } from '../kernel/vocabulary.js'

export const IsoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD').openapi({ format: 'date', example: '2026-11-22' })
export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
export const Uuid = z.uuid({ message: 'must be a UUID' })
export const CurrencyCode = z
  .string()
  .refine((s) => isCurrency(s), 'must be an ISO 4217 currency code such as USD or EUR')
  .openapi({ example: 'USD' })
/**
 * Amounts are accepted as JSON numbers or decimal strings; parsed to minor units exactly. The string
 * first: imports send decimal strings, and a z.number() tried first and failed made an issue object
 * a row (about 500 of the 3,000 bytes zod allocated for a batch row). A union answers with the first
 * option that fits, so the value is the same in either order, and so are the messages (a test pins them).
 */
export const AmountInput = z.union([z.string().max(40), z.number()]).openapi({ example: -149.99 })
export const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`)

// ---- errors and envelopes ------------------------------------------------------------------

export const ErrorBody = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      request_id: z.string(),
    }),
  })
  .openapi('Error')

export const Pagination = z
  .object({
    limit: z.number().int(),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
    // Transactions and statements count only when asked (`include_total=true`): a count reads every match.
    total: z.number().int().optional(),
  })
  .openapi('Pagination')

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data })
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: Pagination })
}

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) })

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) })

export const Health = z.object({ status: z.literal('ok'), version: z.string(), store: z.enum(DIALECTS) })
