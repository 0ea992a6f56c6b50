/**
 * Bank statements (docs/api.md section 5): the Statement resource, the upload request in its two shapes
 * (multipart/form-data and JSON with the file in base64) and the list queries. One source for
 * validation, types and the OpenAPI document.
 */
import { z } from '@hono/zod-openapi'
import { AmountInput, boolQuery, IsoDate, Timestamp, TransactionListQuery } from '../schemas.js'

import { STATEMENT_FORMATS, STATEMENT_STATUSES, type StatementFormat } from '../../kernel/statement-formats.js'

export { STATEMENT_FORMATS, STATEMENT_STATUSES }
export type StatementFormatName = StatementFormat
export type StatementStatus = (typeof STATEMENT_STATUSES)[number]
export const BALANCE_CHECKS = ['ok', 'mismatch', 'unavailable'] as const
export type BalanceCheck = (typeof BALANCE_CHECKS)[number]

/** A statement file may be up to 20 MiB (docs/api.md section 1). */
export const MAX_STATEMENT_FILE = 20 * 1024 * 1024

export const Statement = z
  .object({
    id: z.string(),
    bank_account_id: z.string(),
    file_name: z.string(),
    format: z.enum(STATEMENT_FORMATS),
    file_sha256: z.string(),
    file_size: z.number().int().openapi({ description: 'bytes' }),
    file_kept: z.boolean().optional().openapi({
      description:
        'true: finctl keeps the original file, byte for byte (GET /statements/{id}/file; finctl statements file ID -o FILE); false for a statement uploaded before finctl kept files. In the get, list and upload answers',
    }),
    file_note: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'why the original is not kept (null when it is); beside file_kept' }),
    status: z.enum(STATEMENT_STATUSES),
    period_start: IsoDate.nullable(),
    period_end: IsoDate.nullable(),
    opening_balance: z.number().nullable(),
    closing_balance: z.number().nullable(),
    currency_code: z.string().openapi({ description: "the bank account's currency, of the balances and of every line" }),
    balance_check: z.enum(BALANCE_CHECKS).nullable().openapi({
      description:
        'opening + sum of the lines = closing, exactly; unavailable when the file gives no opening or closing balance; null until processed',
    }),
    line_count: z.number().int().openapi({ description: 'lines of the statement: transaction_count + duplicate_count' }),
    transaction_count: z
      .number()
      .int()
      .openapi({ description: 'transactions of this statement: created from its lines, or reconciled with them (matched_count)' }),
    duplicate_count: z.number().int().openapi({ description: 'lines imported before (by another statement): not created again' }),
    matched_count: z
      .number()
      .int()
      .openapi({ description: 'lines that reconciled an existing transaction of the account instead of creating one' }),
    error: z.string().nullable(),
    warnings: z.array(z.string()).openapi({
      description:
        'with line numbers: lines skipped as no transactions, quirks read by a rule, choices made; on a failed statement, each transaction line that could not be read',
    }),
    created_at: Timestamp,
    processed_at: Timestamp.nullable(),
    batch_id: z
      .string()
      .optional()
      .openapi({ description: 'in the upload answer: the import batch recording it (GET /api-v1/imports/{id})' }),
  })
  .openapi('Statement')
export type Statement = z.infer<typeof Statement>

const csvOptions = {
  date_format: z.string().max(20).optional().openapi({
    description:
      "the dates' layout (CSV and QIF; refused for the formats that write dates one way): day, month (MM, or its name MMM/MMMM) and year in any order with any separators, e.g. DD.MM.YYYY, MM/DD/YY, DD/YYYY/MM, D-MMM-YYYY, YYYYMMDD, or a strftime pattern such as %d-%b-%Y",
  }),
  encoding: z.string().max(40).optional().openapi({ description: 'text encoding, e.g. windows-1252 (detected when not given)' }),
  delimiter: z.string().max(3).optional().openapi({ description: 'CSV field separator (detected when not given)' }),
  account_number: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: 'which account of a file that holds several to import: its number as the file gives it (or its end)' }),
}

/** `field=Column` entries, as `finctl tx import --map` takes them. */
const MapEntry = z
  .string()
  .max(200)
  .regex(/^[a-z_]+=.+$/, 'must be field=Column, e.g. description=Memo')

export const StatementUploadJson = z
  .object({
    bank_account_id: z.string().min(1, 'is required'),
    file_name: z.string().trim().min(1, 'is required').max(255),
    format: z.enum(STATEMENT_FORMATS).optional(),
    content_base64: z.string().min(1, 'is required').openapi({ description: 'the file, base64-encoded (at most 20 MiB decoded)' }),
    ...csvOptions,
    map: z.array(MapEntry).max(30).optional().openapi({ description: 'CSV column mapping, field=Column (repeat a field to join columns)' }),
    where: z
      .array(
        z
          .string()
          .max(200)
          .regex(/^[^=]+=.*$/, 'must be Column=value'),
      )
      .max(10)
      .optional()
      .openapi({ description: 'CSV: keep only rows whose column holds this value' }),
    decimal_comma: z.boolean().optional(),
    skip_lines: z.number().int().min(0).max(1000).optional(),
    no_header: z.boolean().optional().openapi({ description: 'CSV: the file has no header row; map columns by number' }),
    no_layout: z
      .boolean()
      .optional()
      .openapi({ description: "CSV: read the file by detection alone, not as a bank's layout finctl knows" }),
    invert_sign: z.boolean().optional(),
    no_balance_check: z
      .boolean()
      .optional()
      .openapi({ description: "CSV: take the lines even where the file's running balance does not follow them" }),
    exchange_rate: AmountInput.optional().openapi({
      description: "rate to the company's base currency, required when the account's currency is another",
    }),
    review: z.boolean().optional().openapi({
      description: 'keep the upload pending (no statement yet): answered 200 with its import batch, uploaded by POST /imports/{id}/apply',
    }),
  })
  .strict()
  .openapi('StatementUploadJson')
export type StatementUploadJson = z.infer<typeof StatementUploadJson>

const formBool = z.enum(['true', 'false', '1', '0', 'on']).transform((v) => v === 'true' || v === '1' || v === 'on')
const formList = (item: z.ZodString) => z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]))

export const StatementUploadForm = z
  .object({
    file: z
      .custom<Blob>((v) => v instanceof Blob, 'must be a file part')
      .openapi({ type: 'string', format: 'binary', description: 'the statement file (at most 20 MiB)' }),
    bank_account_id: z.string().min(1, 'is required'),
    file_name: z.string().trim().min(1).max(255).optional().openapi({ description: "defaults to the file part's name" }),
    format: z.enum(STATEMENT_FORMATS).optional(),
    ...csvOptions,
    map: formList(MapEntry).optional().openapi({ description: 'repeat the part for several entries' }),
    where: formList(
      z
        .string()
        .max(200)
        .regex(/^[^=]+=.*$/, 'must be Column=value'),
    ).optional(),
    decimal_comma: formBool.optional(),
    skip_lines: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a whole number')
      .transform(Number)
      .optional(),
    no_header: formBool.optional(),
    no_layout: formBool.optional(),
    invert_sign: formBool.optional(),
    no_balance_check: formBool.optional(),
    exchange_rate: z.string().max(40).optional(),
    review: formBool.optional(),
  })
  .strict()
  .openapi('StatementUploadForm')

export const StatementListQuery = z
  .object({
    bank_account_id: z.string().optional(),
    status: z.enum(STATEMENT_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(200).optional(),
    include_total: boolQuery.optional(),
  })
  .strict()
export type StatementListQuery = z.infer<typeof StatementListQuery>

/** The transaction filters of GET /transactions, within one statement. */
export const StatementTransactionsQuery = TransactionListQuery.omit({ statement_id: true, include_account_names: true })
export type StatementTransactionsQuery = z.infer<typeof StatementTransactionsQuery>
