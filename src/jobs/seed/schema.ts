/**
 * The seed file: an ordered list of named steps, each of one kind, checked in full (zod) before
 * anything is written. Every problem is reported with its step and field:
 * `steps[2] (transactions "coffee") generate.count: ...`.
 *
 * ```yaml
 * version: 1
 * steps:
 *   - account: operating            # kind: name (the name is how later steps and --env-out refer to it)
 *     name: Operating
 *     account_type: checking
 *     currency_code: ${env.COMPANY_CURRENCY}
 *   - transactions: coffee
 *     bank_account_id: ${accounts.operating.id}
 *     generate: { count: 20, seed: 42, from: ${date:-30d}, to: ${today}, amount: { min: "-9.00", max: "-2.50" }, merchants: [Blue Bottle] }
 * ```
 *
 * Kinds: account, transactions, import, statement, api_key, budget, recurring. A new kind (a `rules` step: the service
 * has categorization rules, the seed does not yet) is one more entry in KINDS with its schema, its
 * checks in validate.ts and its handler in steps/.
 *
 * This module holds the schemas and the step types; reading and checking a whole file (and the
 * checks across steps) is validate.ts.
 */
import { z } from 'zod'
import { isCurrency } from '../../kernel/currencies.js'
import {
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
  ACCOUNTING_CATEGORIES,
  API_KEY_SCOPES,
  CASH_FLOW_CATEGORIES,
  CreateTransactionRequest,
  isIsoDate,
} from '../../domain/schemas.js'
import { STATEMENT_FORMATS } from '../../domain/statements/schemas.js'
import { ROLES } from '../../import/mapping.js'
import { dateFormatProblem } from '../../import/dates.js'
import { daysBetween } from './generate.js'
import { resolveSteps, type Namespace, type Results, type StepRef } from './resolve.js'

// ---- field schemas ------------------------------------------------------------------------------

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`)
export const StepName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'must be 1 to 40 letters, digits, _ or -, starting with a letter')
const IsoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD')
const Currency = z.string().refine(isCurrency, 'must be an ISO 4217 currency code such as USD or EUR')
const Amount = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^[+\-\u2212]?\d+(\.\d+)?$/, 'must be a decimal amount such as -12.50'),
])
const Uuid = z.uuid({ message: 'must be a UUID, or a reference such as ${accounts.NAME.id}' })
/** A whole number, also written as a string (so `${env.N}` works). */
const Whole = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number')])
    .transform(Number)
    .pipe(z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
const Tags = z.array(z.string().trim().min(1, 'must not be empty').max(50)).max(50)
const RelPath = z.string().trim().min(1, 'is required')

const MAP_FIELDS = [...ROLES, 'transaction_date'] as const
/** CSV column mapping: `{ description: ["Payee", "Memo"], amount: "Betrag" }` (several columns join). */
const ColumnMap = z.record(z.string(), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).superRefine((m, c) => {
  for (const k of Object.keys(m)) {
    if (!(MAP_FIELDS as readonly string[]).includes(k))
      c.addIssue({ code: 'custom', path: [k], message: `unknown field; use one of ${ROLES.join(', ')}` })
  }
})
const csvReading = {
  map: ColumnMap.optional(),
  date_format: z
    .string()
    .max(20)
    .superRefine((s, c) => {
      const problem = dateFormatProblem(s)
      if (problem) c.addIssue({ code: 'custom', message: problem })
    })
    .optional(),
  delimiter: z.string().min(1).max(3).optional(),
  encoding: z.string().max(40).optional(),
  decimal_comma: z.boolean().optional(),
  skip_lines: Whole(0, 1000).optional(),
  no_header: z.boolean().optional(),
  no_layout: z.boolean().optional(),
  where: z.record(z.string(), z.string()).optional(),
  invert_sign: z.boolean().optional(),
}

export const AccountSpec = z
  .object({
    account: StepName,
    /** The account's name, and how it is found again (default: the step name). */
    name: text(200).min(1, 'must not be empty').optional(),
    /** Earlier names: an account found under one of them is renamed to `name`. */
    renamed_from: z.array(text(200).min(1)).max(20).optional(),
    account_type: z.enum(ACCOUNT_TYPES),
    currency_code: Currency,
    institution_name: text(200).optional(),
    account_number: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z -]{4,40}$/, 'must be 4 to 40 letters or digits')
      .optional(),
    opening_balance: Amount.optional(),
    opening_balance_date: IsoDate.optional(),
    /** The opening balance's rate into the base currency, when the company's rates have none in reach (docs/money.md). */
    opening_exchange_rate: Amount.optional(),
    status: z.enum(ACCOUNT_STATUSES).optional(),
  })
  .strict()
export type AccountSpec = z.infer<typeof AccountSpec>

const TransactionItem = CreateTransactionRequest.omit({ bank_account_id: true, import_ref: true })
export type TransactionItem = z.infer<typeof TransactionItem>

const Generate = z
  .object({
    count: Whole(1, 5000),
    seed: z.union([z.number().int(), z.string().min(1).max(200)]),
    from: IsoDate,
    to: IsoDate,
    amount: z.object({ min: Amount, max: Amount }).strict(),
    merchants: z.array(text(200).min(1, 'must not be empty')).min(1, 'give at least one merchant').max(1000),
    description: text(1000).min(1).optional(),
    category: text(100).optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
    tags: Tags.optional(),
    exchange_rate: Amount.optional(),
  })
  .strict()
  .superRefine((g, c) => {
    if (!isIsoDate(g.from) || !isIsoDate(g.to)) return
    const days = daysBetween(g.from, g.to)
    if (days < 0) c.addIssue({ code: 'custom', path: ['from'], message: `is after to (${g.to})` })
    if (days > 36_600) c.addIssue({ code: 'custom', path: ['to'], message: 'the range is more than 100 years' })
  })

export const TransactionsSpec = z
  .object({
    transactions: StepName,
    bank_account_id: Uuid,
    items: z.array(TransactionItem).min(1, 'give at least one transaction').max(5000, 'at most 5,000 transactions per step').optional(),
    generate: Generate.optional(),
  })
  .strict()
  .superRefine((s, c) => {
    if ((s.items === undefined) === (s.generate === undefined))
      c.addIssue({ code: 'custom', path: ['items'], message: 'give either items or generate (one of them)' })
  })
export type TransactionsSpec = z.infer<typeof TransactionsSpec>

export const ImportSpec = z
  .object({
    import: StepName,
    bank_account_id: Uuid,
    /** A CSV file, relative to the seed file. */
    file: RelPath,
    ...csvReading,
    indicator_debit: z.array(z.string().min(1)).max(10).optional(),
    set: z
      .object({
        currency_code: Currency.optional(),
        category: text(100).optional(),
        accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
        cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
        merchant_name: text(200).optional(),
        tags: Tags.optional(),
        exchange_rate: Amount.optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
export type ImportSpec = z.infer<typeof ImportSpec>

export const StatementSpec = z
  .object({
    statement: StepName,
    bank_account_id: Uuid,
    /** A statement file (CSV, OFX/QFX, QIF, CAMT.053, MT940), relative to the seed file. */
    file: RelPath,
    format: z.enum(STATEMENT_FORMATS).optional(),
    ...csvReading,
    /** Which account of a file that holds several. */
    account_number: z.string().max(64).optional(),
    exchange_rate: Amount.optional(),
  })
  .strict()
export type StatementSpec = z.infer<typeof StatementSpec>

export const ApiKeySpec = z
  .object({
    api_key: StepName,
    /** The key's name, and how it is found again (default: the step name). */
    name: text(100).min(1).optional(),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, 'give at least one scope').max(5),
    description: text(500).optional(),
    expires_at: z
      .string()
      .refine((s) => isIsoDate(s) || z.iso.datetime({ offset: true }).safeParse(s).success, 'must be an ISO 8601 date or timestamp')
      .optional(),
    expires_in: z
      .string()
      .regex(/^\d+\s*[smhdw]$/i, 'must be a duration such as 90d, 12h or 2w')
      .optional(),
    rate_limit_per_minute: Whole(1, 1_000_000).optional(),
    rate_limit_per_day: Whole(1, 100_000_000).optional(),
  })
  .strict()
  .superRefine((k, c) => {
    if (k.expires_at !== undefined && k.expires_in !== undefined)
      c.addIssue({ code: 'custom', path: ['expires_in'], message: 'give expires_at or expires_in, not both' })
  })
export type ApiKeySpec = z.infer<typeof ApiKeySpec>

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM')

/** A category's monthly budget over months (docs/budgets.md); setting the same again changes nothing. */
export const BudgetSpec = z
  .object({
    budget: StepName,
    category: text(100).min(1, 'must not be empty'),
    monthly: Amount,
    currency: Currency.optional(),
    from: Month.optional(),
    to: Month.optional(),
    version: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'must be 1-40 letters, digits, dots, dashes or underscores')
      .optional(),
    rollover: z.boolean().optional(),
  })
  .strict()
export type BudgetSpec = z.infer<typeof BudgetSpec>

/** A recurring item added by hand (docs/forecast.md), found again by its name. */
export const RecurringSpec = z
  .object({
    recurring: StepName,
    /** The item's name, and how it is found again (default: the step name). */
    name: text(100).min(1).optional(),
    amount: Amount,
    interval: z.enum(['weekly', 'biweekly', 'monthly', 'last_working_day', 'quarterly', 'yearly']),
    start: IsoDate,
    match: text(200).optional(),
    category: text(100).optional(),
    bank_account_id: Uuid.optional(),
    currency: Currency.optional(),
    ends_on: IsoDate.optional(),
  })
  .strict()
export type RecurringSpec = z.infer<typeof RecurringSpec>

// ---- kinds --------------------------------------------------------------------------------------

/** Each kind: its namespace for references, the results it gives, its schema. */
export const KINDS = {
  account: { ns: 'accounts', fields: ['id', 'name', 'currency_code'], schema: AccountSpec },
  transactions: { ns: 'transactions', fields: ['count', 'ids'], schema: TransactionsSpec },
  import: { ns: 'imports', fields: ['read', 'created'], schema: ImportSpec },
  statement: { ns: 'statements', fields: ['id', 'status'], schema: StatementSpec },
  api_key: { ns: 'keys', fields: ['id', 'name', 'key_prefix'], schema: ApiKeySpec },
  budget: { ns: 'budgets', fields: ['version', 'category'], schema: BudgetSpec },
  recurring: { ns: 'recurring', fields: ['id', 'name'], schema: RecurringSpec },
} as const satisfies Record<string, { ns: Namespace; fields: readonly string[]; schema: z.ZodType }>
export type Kind = keyof typeof KINDS

export interface SpecOf {
  account: AccountSpec
  transactions: TransactionsSpec
  import: ImportSpec
  statement: StatementSpec
  api_key: ApiKeySpec
  budget: BudgetSpec
  recurring: RecurringSpec
}

export interface Step<K extends Kind = Kind> {
  kind: K
  ns: Namespace
  name: string
  index: number
  /** `steps[2] (transactions "coffee")` */
  label: string
  /** The step with env variables and generators resolved; step references still in place. */
  raw: Record<string, unknown>
  /** The steps this one refers to. */
  refs: StepRef[]
  /** Import and statement files, absolute. */
  file?: string
  /** The account currency when the seed file says it (transactions steps on a seeded account). */
  currency?: string
}

export type AnyStep = { [K in Kind]: Step<K> }[Kind]

export interface Seed {
  path: string
  dir: string
  steps: AnyStep[]
}

/** `ACCOUNTS_OPERATING_ID`: the --env-out name of a result. */
export function envName(ns: Namespace, step: string, field: string): string {
  return `${ns}_${step}_${field}`.toUpperCase().replace(/[^A-Z0-9]/g, '_')
}

/** The step's spec with the results of earlier steps filled in (`placeholder` for a dry run). */
export function materialize<K extends Kind>(step: Step<K>, results: Results, placeholder?: (ref: StepRef) => string): SpecOf[K] {
  const value = resolveSteps(step.raw, results, placeholder)
  return (KINDS[step.kind].schema as z.ZodType).parse(value) as SpecOf[K]
}
