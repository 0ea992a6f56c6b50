/** Exchange rates (docs/api.md section 5): a company's dated rates to its base currency. */
import { z } from '@hono/zod-openapi'
import { RATE_FILE_FORMATS } from '../../import/rates.js'
import { AmountInput, CurrencyCode, IsoDate, Timestamp } from '../schema-common.js'

export const ExchangeRate = z
  .object({
    date: IsoDate,
    currency: z.string(),
    rate: z
      .string()
      .openapi({ description: "units of the company's base currency per 1 unit of `currency`, a decimal string", example: '0.9231' }),
    source: z.string().openapi({ description: '`ecb`, `manual`, or the plain file it came from' }),
    created_at: Timestamp,
  })
  .openapi('ExchangeRate')
export type ExchangeRate = z.infer<typeof ExchangeRate>

export const ExchangeRateListQuery = z
  .object({
    currency: CurrencyCode.optional(),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(200).optional(),
  })
  .strict()
export type ExchangeRateListQuery = z.infer<typeof ExchangeRateListQuery>

export const ExchangeRateParams = z.object({
  date: IsoDate.openapi({ param: { name: 'date', in: 'path' } }),
  currency: CurrencyCode.openapi({ param: { name: 'currency', in: 'path' } }),
})

export const SetExchangeRateRequest = z
  .object({
    rate: AmountInput.openapi({ description: 'units of the base currency per 1 unit of the currency', example: '0.9231' }),
    source: z.string().trim().min(1, 'must not be empty').max(100).optional().openapi({ description: 'default `manual`' }),
  })
  .strict()
  .openapi('SetExchangeRateRequest')
export type SetExchangeRateRequest = z.infer<typeof SetExchangeRateRequest>

export const DeletedExchangeRate = z.object({ date: z.string(), currency: z.string(), deleted: z.literal(true) })

export const RatesImportJson = z
  .object({
    file_name: z.string().trim().min(1, 'is required').max(255),
    format: z
      .enum(RATE_FILE_FORMATS)
      .optional()
      .openapi({ description: 'ecb (eurofxref-hist.csv: rates per 1 EUR) or plain (date,currency,rate); default: told by the header' }),
    content_base64: z.string().min(1, 'is required').openapi({ description: 'the file, base64-encoded (at most 20 MiB decoded)' }),
  })
  .strict()
  .openapi('RatesImportJson')
export type RatesImportJson = z.infer<typeof RatesImportJson>

export const RatesImportForm = z
  .object({
    file: z
      .custom<Blob>((v) => v instanceof Blob, 'must be a file part')
      .openapi({ type: 'string', format: 'binary', description: 'the rates file (at most 20 MiB)' }),
    file_name: z.string().trim().min(1).max(255).optional(),
    format: z.enum(RATE_FILE_FORMATS).optional(),
  })
  .strict()
  .openapi('RatesImportForm')

export const RatesImportResult = z
  .object({
    imported: z.number().int().openapi({ description: 'rates new to the table' }),
    replaced: z.number().int().openapi({ description: 'rates of a date and currency the table had: replaced by the file' }),
    skipped: z
      .number()
      .int()
      .openapi({ description: 'cells without a rate (N/A), and days without a rate of the base currency (ECB files)' }),
    currencies: z.array(z.string()),
    from: z.string().nullable(),
    to: z.string().nullable(),
    notes: z.array(z.string()),
  })
  .openapi('RatesImportResult')
export type RatesImportResult = z.infer<typeof RatesImportResult>
