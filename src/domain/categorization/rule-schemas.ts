/**
 * Categorization rules: the schemas of a rule (conditions, actions, resource, requests), exact
 * decimal bounds, and a rule's conditions in words. No regex engine here: the CLI and the routes
 * load this module at start, while the matcher (./rule-matcher.ts, with re2js) loads only when rules run.
 * A pattern's syntax and size are checked by `checkPatterns` in ./rule-matcher.ts before a rule is stored.
 */
import { z } from '@hono/zod-openapi'
import { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES, CurrencyCode, Tags, Timestamp, Transaction, Uuid, isIsoDate } from '../schemas.js'

export const MAX_PATTERN_LENGTH = 500
/** Compiled RE2 instructions: `.{1000}` alone is 1,003. */
export const MAX_PATTERN_SIZE = 2000

/** A decimal as an exact fraction n / 10^scale; never through a float. */
interface Decimal {
  n: bigint
  scale: number
}

const DECIMAL = /^([+-]?)(\d{1,15})(?:\.(\d{1,12}))?$/

export function parseDecimal(value: string | number): Decimal | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim().replace(/^\u2212/, '-')
  const m = DECIMAL.exec(text)
  if (!m) return null
  const fraction = m[3] ?? ''
  const n = BigInt(m[2] + fraction)
  return { n: m[1] === '-' ? -n : n, scale: fraction.length }
}

/** The bound in minor units of a currency with exponent `exp`: amount >= ceil(v) / amount <= floor(v). */
export function minorBound(d: Decimal, exp: number, round: 'ceil' | 'floor'): number {
  const num = d.n * 10n ** BigInt(exp)
  const den = 10n ** BigInt(d.scale)
  let q = num / den // truncates toward zero
  if (num % den !== 0n) {
    if (round === 'floor' && num < 0n) q -= 1n
    if (round === 'ceil' && num > 0n) q += 1n
  }
  // Beyond 2^53 the Number is approximate, but still beyond every amount (at most 15 digits).
  return Number(q)
}

/** Both at the largest scale a decimal may have (12), so they compare as integers. */
const atMaxScale = (v: string | number) => {
  const d = parseDecimal(v)!
  return d.n * 10n ** BigInt(12 - d.scale)
}

// ---- schemas -------------------------------------------------------------------------------

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)
const Needle = text(200)
const Pattern = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_PATTERN_LENGTH, `must be at most ${MAX_PATTERN_LENGTH} characters`)
  .openapi({ description: 'RE2 syntax, case-insensitive, matches anywhere (anchor with ^ and $)', example: '^(aws|amazon web services)' })
const AmountBound = z
  .union([z.number(), z.string().max(40)])
  .refine((v) => parseDecimal(v) !== null, 'must be a decimal amount such as -100 or 12.50')
  .openapi({ description: 'signed like transaction amounts (money out is negative), inclusive', example: '-100.00' })

const CONDITION_KEYS = [
  'description_contains',
  'description_equals',
  'description_regex',
  'merchant_contains',
  'merchant_equals',
  'merchant_regex',
  'min_amount',
  'max_amount',
  'bank_account_id',
  'currency_code',
] as const

export const RuleConditions = z
  .object({
    description_contains: Needle.optional(),
    description_equals: Needle.optional(),
    description_regex: Pattern.optional(),
    merchant_contains: Needle.optional(),
    merchant_equals: Needle.optional(),
    merchant_regex: Pattern.optional(),
    min_amount: AmountBound.optional(),
    max_amount: AmountBound.optional(),
    bank_account_id: Uuid.optional(),
    currency_code: CurrencyCode.optional(),
  })
  .strict()
  .refine((c) => CONDITION_KEYS.some((k) => c[k] !== undefined), `give at least one condition: ${CONDITION_KEYS.join(', ')}`)
  .refine((c) => c.min_amount === undefined || c.max_amount === undefined || atMaxScale(c.min_amount) <= atMaxScale(c.max_amount), {
    message: 'must not be less than min_amount',
    path: ['max_amount'],
  })
  .openapi('RuleConditions', { description: 'every condition given must hold; text conditions ignore case and surrounding spaces' })
export type RuleConditions = z.infer<typeof RuleConditions>

const ACTION_KEYS = ['category', 'accounting_category', 'cash_flow_category', 'merchant_name', 'tags'] as const

export const RuleActions = z
  .object({
    category: text(100).optional(),
    accounting_category: z.enum(ACCOUNTING_CATEGORIES).optional(),
    cash_flow_category: z.enum(CASH_FLOW_CATEGORIES).optional(),
    merchant_name: text(200).optional(),
    tags: Tags.min(1, 'give at least one tag').optional().openapi({ description: "added to the transaction's tags" }),
  })
  .strict()
  .refine((a) => ACTION_KEYS.some((k) => a[k] !== undefined), `give at least one action: ${ACTION_KEYS.join(', ')}`)
  .openapi('RuleActions')
export type RuleActions = z.infer<typeof RuleActions>

export const CategorizationRule = z
  .object({
    id: z.string(),
    name: z.string(),
    position: z.number().int().openapi({ description: 'rules run in ascending position, from 1' }),
    conditions: RuleConditions,
    actions: RuleActions,
    is_active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('CategorizationRule')
export type CategorizationRule = z.infer<typeof CategorizationRule>

const RuleName = text(200)
const Position = z.number().int().min(1, 'must be 1 or more').max(1_000_000).openapi({ description: 'past the end: last' })

export const CreateRuleRequest = z
  .object({
    name: RuleName.optional(),
    position: Position.optional(),
    conditions: RuleConditions,
    actions: RuleActions,
    is_active: z.boolean().optional(),
  })
  .strict()
  .openapi('CreateCategorizationRuleRequest')
export type CreateRuleRequest = z.infer<typeof CreateRuleRequest>

export const UpdateRuleRequest = z
  .object({
    name: RuleName.optional(),
    position: Position.optional(),
    conditions: RuleConditions.optional(),
    actions: RuleActions.optional(),
    is_active: z.boolean().optional(),
  })
  .strict()
  .openapi('UpdateCategorizationRuleRequest', { description: 'conditions and actions replace the old ones whole' })
export type UpdateRuleRequest = z.infer<typeof UpdateRuleRequest>

const MAX_SINCE_DAYS = 36_500
export const Since = z
  .string()
  .refine(
    (s) => (/^\d{1,5}d$/.test(s) && Number(s.slice(0, -1)) <= MAX_SINCE_DAYS) || isIsoDate(s),
    'must be a number of days such as 90d, or a date YYYY-MM-DD',
  )
  .openapi({ description: 'transactions dated on or after: Nd (N days before today, UTC) or YYYY-MM-DD; default 90d', example: '90d' })

/** The first transaction_date a `since` covers. */
export function sinceDate(since: string, now: Date): string {
  if (isIsoDate(since)) return since
  return new Date(now.getTime() - Number(since.slice(0, -1)) * 86_400_000).toISOString().slice(0, 10)
}

const OnlyEmpty = z.boolean().openapi({
  description: 'fill only fields the transaction leaves empty (tags are added either way); default false: a rule replaces what it sets',
})
/** A query's true or false. */
const OnlyEmptyQuery = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((v) => v === 'true')
  .openapi({ type: 'string', enum: ['true', 'false'], description: OnlyEmpty.description })

/** What a run of rules over existing transactions takes, from a query or a body. */
export interface RuleRunOptions {
  since?: string
  only_empty?: boolean
}

export const RuleTestQuery = z
  .object({
    since: Since.optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: 'changes listed, default 50' }),
    only_empty: OnlyEmptyQuery.optional(),
  })
  .strict()
export const RuleApplyRequest = z.object({ since: Since.optional(), only_empty: OnlyEmpty.optional() }).strict().openapi('RuleApplyRequest')

const FieldChange = z.object({ from: z.unknown(), to: z.unknown() })
export const RuleTestResult = z
  .object({
    rule: CategorizationRule.optional().openapi({ description: 'the rule tested; absent when all active rules were' }),
    rules: z.number().int().openapi({ description: 'how many rules ran: 1, or the active rules' }),
    since: z.string(),
    only_empty: z.boolean(),
    scanned: z.number().int(),
    matched: z.number().int(),
    would_change: z.number().int(),
    would_replace: z.number().int().openapi({ description: 'of those, the rows where a field set holds another value now' }),
    changes: z.array(
      z.object({
        transaction: Transaction,
        changes: z.record(z.string(), FieldChange),
        rule_ids: z.array(z.string()).openapi({ description: 'the rules that set something on the row, in run order' }),
      }),
    ),
  })
  .openapi('RuleTestResult')
export type RuleTestResult = z.infer<typeof RuleTestResult>

export const RuleApplyResult = z
  .object({
    since: z.string(),
    only_empty: z.boolean(),
    matched: z.number().int(),
    updated: z.number().int(),
    transaction_ids: z.array(z.string()).optional().openapi({ description: 'when at most 1,000' }),
  })
  .openapi('RuleApplyResult')
export type RuleApplyResult = z.infer<typeof RuleApplyResult>
