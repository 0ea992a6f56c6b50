/** Recurring items (docs/forecast.md): suggested by detection, accepted, or added by hand. */
import { z } from '@hono/zod-openapi'
import { AmountInput, CurrencyCode, IsoDate, Timestamp, text } from '../schema-common.js'
import { INTERVALS } from './schedule.js'

export const RecurringItem = z
  .object({
    id: z.string(),
    status: z.enum(['suggested', 'accepted']),
    source: z.enum(['detected', 'manual']),
    name: z.string(),
    match_key: z
      .string()
      .openapi({ description: "what its transactions are found by: 'm:' and the merchant, or 'd:' and the description's words" }),
    interval: z.enum(INTERVALS),
    anchor_date: IsoDate,
    day_of_month: z.number().int().nullable(),
    amount: z.number().openapi({ description: 'the typical amount, signed as a transaction (a payment is negative), in `currency`' }),
    currency: z.string(),
    amount_tolerance: z.number().int().openapi({ description: 'percent an occurrence may differ by; 0: exact' }),
    date_tolerance: z.number().int().openapi({ description: 'days an occurrence may be off its date' }),
    bank_account_id: z.string().nullable(),
    category: z.string().nullable(),
    first_seen: z.string().nullable(),
    last_seen: z.string().nullable(),
    occurrences: z.number().int(),
    missed_in_history: z.number().int().openapi({ description: 'slots between the first and last occurrence without a payment' }),
    next_expected: IsoDate.openapi({ description: 'the next date a payment is due after the last one seen' }),
    missed: z
      .object({ expected: IsoDate, not_seen_by: IsoDate, message: z.string() })
      .nullable()
      .openapi({ description: 'an accepted item whose next payment is overdue (its date and tolerance passed without one)' }),
    transactions: z.array(z.string()).openapi({ description: 'ids of the latest transactions it rests on (at most 24)' }),
    ends_on: IsoDate.nullable(),
    created_at: Timestamp,
    accepted_at: Timestamp.nullable(),
  })
  .openapi('RecurringItem')
export type RecurringItem = z.infer<typeof RecurringItem>

export const DetectRequest = z
  .object({
    date_tolerance: z.number().int().min(0).max(7).optional().openapi({ description: 'days a payment may be off its date (default 3)' }),
    amount_tolerance: z.number().int().min(0).max(50).optional().openapi({ description: 'percent; 0: amounts must be equal (default 10)' }),
    min_occurrences: z.number().int().min(3).max(100).optional().openapi({ description: 'default 3' }),
    from: IsoDate.optional().openapi({ description: 'the first day of history read (default: all of it)' }),
  })
  .strict()
  .openapi('DetectRecurringRequest')
export type DetectRequest = z.infer<typeof DetectRequest>

export const DetectResult = z
  .object({
    scanned: z.number().int().openapi({ description: 'transactions read (void ones and transfers are left out)' }),
    payees: z.number().int(),
    items: z.array(RecurringItem).openapi({ description: 'what was found: suggested items, and accepted ones found again' }),
  })
  .openapi('DetectRecurringResult')
export type DetectResult = z.infer<typeof DetectResult>

export const AddRecurringRequest = z
  .object({
    name: text(100).min(1, 'must not be empty'),
    amount: AmountInput.openapi({ description: 'signed as a transaction: a payment is negative', example: '-2500.00' }),
    currency: CurrencyCode.optional().openapi({ description: "default: the company's base currency" }),
    interval: z.enum(INTERVALS),
    start: IsoDate.openapi({ description: 'the first date (its day of the month is kept for monthly, quarterly and yearly)' }),
    match: text(200).optional().openapi({ description: 'merchant or description its transactions carry (default: the name)' }),
    category: text(100).optional(),
    bank_account_id: z.string().max(100).optional(),
    ends_on: IsoDate.optional(),
    date_tolerance: z.number().int().min(0).max(7).optional(),
    amount_tolerance: z.number().int().min(0).max(50).optional(),
  })
  .strict()
  .openapi('AddRecurringRequest')
export type AddRecurringRequest = z.infer<typeof AddRecurringRequest>

export const RecurringListQuery = z
  .object({ status: z.enum(['suggested', 'accepted', 'all']).optional().openapi({ description: 'default accepted' }) })
  .strict()
export type RecurringListQuery = z.infer<typeof RecurringListQuery>
