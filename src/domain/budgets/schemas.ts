/** Budgets and the budget report (docs/budgets.md, docs/api.md section 5). */
import { z } from '@hono/zod-openapi'
import { AmountInput, CurrencyCode, IsoDate, Timestamp, text } from '../schema-common.js'
import { BUDGET_INTERVALS } from './months.js'

const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM')
  .openapi({ example: '2026-01' })
export const VersionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'must be 1-40 letters, digits, dots, dashes or underscores, starting with a letter or digit')
  .openapi({ example: 'reforecast-q2' })
const Category = text(100).min(1, 'must not be empty')

export const SetBudgetRequest = z
  .object({
    category: Category.openapi({ description: "a transaction category (the `category` field), e.g. 'Rent'" }),
    monthly: AmountInput.openapi({
      example: '1200.00',
      description: 'the amount for each month, in `currency`: spending allowed (a positive number); exact to the minor unit',
    }),
    currency: CurrencyCode.optional().openapi({ description: "default: the company's base currency" }),
    from: Month.optional().openapi({ description: 'first month (default: this month)' }),
    to: Month.optional().openapi({ description: 'last month (default: 11 months after `from`); at most 120 months' }),
    version: VersionName.optional().openapi({ description: "the version to set (default: the current one, or 'original')" }),
    rollover: z
      .boolean()
      .optional()
      .openapi({ description: "each month's budget takes the month before's unspent amount (default false)" }),
  })
  .strict()
  .openapi('SetBudgetRequest')
export type SetBudgetRequest = z.infer<typeof SetBudgetRequest>

export const Budget = z
  .object({
    id: z.string(),
    version: z.string(),
    category: z.string(),
    month: z.string(),
    amount: z.number().openapi({ description: 'the budget of the month, in `currency`' }),
    currency: z.string(),
    rollover: z.boolean(),
    created_at: Timestamp,
    created_by: z.string(),
  })
  .openapi('Budget')
export type Budget = z.infer<typeof Budget>

export const SetBudgetResult = z
  .object({
    version: z.string(),
    category: z.string(),
    from: z.string(),
    to: z.string(),
    created: z.number().int().openapi({ description: 'months that had no budget' }),
    updated: z.number().int().openapi({ description: 'months whose budget changed' }),
    unchanged: z.number().int().openapi({ description: 'months that had this budget already' }),
    budgets: z.array(Budget),
  })
  .openapi('SetBudgetResult')
export type SetBudgetResult = z.infer<typeof SetBudgetResult>

export const BudgetListQuery = z
  .object({
    version: VersionName.optional().openapi({ description: 'default: the current version' }),
    category: Category.optional(),
    from: Month.optional(),
    to: Month.optional(),
  })
  .strict()
export type BudgetListQuery = z.infer<typeof BudgetListQuery>

export const DeleteBudgetsQuery = z
  .object({
    category: Category,
    version: VersionName.optional(),
    from: Month.optional().openapi({ description: 'first month (default: every month of the category)' }),
    to: Month.optional(),
  })
  .strict()
export type DeleteBudgetsQuery = z.infer<typeof DeleteBudgetsQuery>

export const DeletedBudgets = z
  .object({ version: z.string(), category: z.string(), deleted: z.number().int(), months: z.array(z.string()) })
  .openapi('DeletedBudgets')
export type DeletedBudgets = z.infer<typeof DeletedBudgets>

export const BudgetVersion = z
  .object({
    name: z.string(),
    current: z.boolean(),
    budgets: z.number().int().openapi({ description: 'months with a budget' }),
    created_at: Timestamp,
  })
  .openapi('BudgetVersion')
export type BudgetVersion = z.infer<typeof BudgetVersion>

export const VersionParam = z.object({ name: VersionName.openapi({ param: { name: 'name', in: 'path' } }) })

// ---- the budget report ---------------------------------------------------------------------

export { BUDGET_INTERVALS }

export const BudgetReportQuery = z
  .object({
    from: IsoDate.optional().openapi({ description: 'first day (default: the first day of this year)' }),
    to: IsoDate.optional().openapi({ description: 'last day (default: the last day of this year)' }),
    interval: z.enum(BUDGET_INTERVALS).optional().openapi({ description: 'period length (default month)' }),
    version: VersionName.optional().openapi({ description: 'default: the current version' }),
    as_of: z.string().datetime({ offset: true }).optional().openapi({
      description: 'as the data and the budgets stood at this moment (docs/audit.md)',
    }),
  })
  .strict()
export type BudgetReportQuery = z.infer<typeof BudgetReportQuery>

const BudgetRow = z
  .object({
    category: z.string(),
    budget: z.number().openapi({
      description:
        "the period's budget in the base currency, rollover included (a budget in another currency at the rate of each month's last day)",
    }),
    rollover: z.number().openapi({ description: 'unspent amount brought from the month before the period (in budget)' }),
    actual: z.number().openapi({
      description: "spending of the category: the negative of reports summary's by_category amount over the period (refunds lower it)",
    }),
    variance: z.number().openapi({ description: 'budget - actual: positive is under budget' }),
    percent_used: z.number().nullable().openapi({ description: 'actual / budget * 100, one decimal, half-even; null for a budget of 0' }),
    budget_currency: z.string().openapi({ description: 'the currency the budget was set in' }),
    estimate: z.boolean().openapi({ description: 'the budget was converted at a rate older than the month (the latest known)' }),
  })
  .openapi('BudgetReportRow')

const Unbudgeted = z
  .object({
    actual: z
      .number()
      .openapi({ description: 'spending of categories without a budget in the period (and of transactions without a category)' }),
    by_category: z.array(z.object({ category: z.string().nullable(), actual: z.number() })),
  })
  .openapi('BudgetReportUnbudgeted')

export const BudgetReport = z
  .object({
    currency: z.string(),
    version: z.string(),
    from: IsoDate,
    to: IsoDate,
    interval: z.enum(BUDGET_INTERVALS),
    periods: z.array(
      z.object({
        label: z.string(),
        period_start: IsoDate,
        period_end: IsoDate,
        rows: z.array(BudgetRow),
        unbudgeted: Unbudgeted,
        total: z.object({ budget: z.number(), actual: z.number(), variance: z.number() }),
      }),
    ),
    totals: z.array(BudgetRow.omit({ rollover: true })).openapi({ description: 'each category over the whole range' }),
    unbudgeted: Unbudgeted,
  })
  .openapi('BudgetReport')
export type BudgetReport = z.infer<typeof BudgetReport>
