/** Schemas of the close's document policy (docs/closing.md, "Documents before a close"): GET/PUT /api-v1/close/policy, and what the status lists. */
import { z } from '@hono/zod-openapi'

const Decimal = z.string().regex(/^\d{1,13}(\.\d{1,4})?$/, 'must be a positive decimal amount such as 100.00')

export const ClosePolicy = z
  .object({
    document_thresholds: z.record(z.string(), z.string()).openapi({
      description: 'per currency (ISO 4217), the amount from which a transaction needs a document, a decimal',
      example: { EUR: '100.00' },
    }),
    require_documents: z
      .boolean()
      .openapi({ description: 'close refuses (not ready) while a transaction at or above its threshold has no document' }),
    updated_by: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .openapi('ClosePolicy')
export type ClosePolicy = z.infer<typeof ClosePolicy>

export const ClosePolicyRequest = z
  .object({
    document_thresholds: z
      .record(z.string().regex(/^[A-Z]{3}$/, 'must be a currency code such as EUR'), Decimal.nullable())
      .optional()
      .openapi({ description: 'the currencies to set; null removes a currency (its transactions then need no document)' }),
    require_documents: z.boolean().optional(),
  })
  .strict()
  .openapi('ClosePolicyRequest')
export type ClosePolicyRequest = z.infer<typeof ClosePolicyRequest>

export const MissingDocument = z
  .object({
    id: z.string(),
    bank_account_id: z.string(),
    transaction_date: z.string(),
    amount: z.string().openapi({ description: 'a decimal in the currency' }),
    currency_code: z.string(),
    description: z.string(),
  })
  .openapi('MissingDocument')
export type MissingDocument = z.infer<typeof MissingDocument>
