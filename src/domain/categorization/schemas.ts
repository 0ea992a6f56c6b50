/** Request and response schemas of the categorization model, its settings, suggestions and review. */
import { z } from '@hono/zod-openapi'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES, Pagination, Timestamp, Transaction } from '../schemas.js'

/** Scores have 3 decimals; rounding also keeps a denormal such as 5e-324 out of a PostgreSQL real. */
const toScoreScale = (x: number) => Math.round(x * 1000) / 1000

export const CategorizationSettings = z
  .object({
    auto_categorize: z.boolean(),
    threshold: z.number(),
    labels_version: z.number().int(),
    updated_at: Timestamp.nullable(),
  })
  .openapi('CategorizationSettings')

export const UpdateCategorizationSettings = z
  .strictObject({
    auto_categorize: z.boolean().optional(),
    threshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').transform(toScoreScale).optional(),
  })
  .refine((v) => v.auto_categorize !== undefined || v.threshold !== undefined, 'give auto_categorize or threshold')
  .openapi('UpdateCategorizationSettings')

export const CalibrationBin = z.object({ from: z.number(), to: z.number(), count: z.number().int(), accuracy: z.number() })

export const ModelStatus = z
  .object({
    auto_categorize: z.boolean(),
    threshold: z.number(),
    labels_version: z.number().int(),
    trained_at: Timestamp,
    trained_on: z.number().int().openapi({ description: 'labelled transactions the model was last trained on' }),
    examples: z.number().int().openapi({ description: 'examples now, with the corrections learned since' }),
    labels: z.number().int(),
    vocabulary: z.number().int(),
    calibration: z.array(CalibrationBin),
  })
  .openapi('CategorizationModel')

export const Suggestion = z
  .object({
    source: z.enum(['rule', 'model']),
    category: z.string(),
    accounting_category: z
      .string()
      .nullable()
      .openapi({ description: `one of ${ACCOUNTING_CATEGORIES.join(', ')}` }),
    cash_flow_category: z
      .string()
      .nullable()
      .openapi({ description: `one of ${CASH_FLOW_CATEGORIES.join(', ')}` }),
    confidence: z.number().nullable(),
    rule_ids: z.array(z.string()),
    explanation: z.array(z.object({ token: z.string(), weight: z.number() })),
  })
  .openapi('CategorySuggestion')

export const ReviewItem = z.object({ transaction: Transaction, suggestion: Suggestion.nullable() }).openapi('ReviewItem')

export const ReviewQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().optional(),
  below: z.coerce
    .number()
    .min(0)
    .max(1)
    .transform(toScoreScale)
    .optional()
    .openapi({ description: 'also list model-categorized rows scored below this (default: the threshold)' }),
})

export const ReviewPage = z.object({ success: z.literal(true), data: z.array(ReviewItem), pagination: Pagination })
