/** The cash forecast (docs/forecast.md): POST /api-v1/forecast, a read whose scenario is its body. */
import { z } from '@hono/zod-openapi'
import { AmountInput, CurrencyCode, IsoDate, text } from '../schema-common.js'
import { VersionName } from '../budgets/schemas.js'
import { INTERVALS } from './schedule.js'

/** At most this many days in one forecast (as the reports' periods). */
export const MAX_FORECAST_DAYS = 1000

export const ScenarioItem = z
  .object({
    name: text(100).min(1, 'must not be empty'),
    amount: AmountInput.openapi({ description: 'signed: a payment is negative', example: '-6000.00' }),
    currency: CurrencyCode.optional(),
    interval: z
      .enum(['once', ...INTERVALS])
      .optional()
      .openapi({ description: 'default once' }),
    start: IsoDate,
    end: IsoDate.optional(),
  })
  .strict()
  .openapi('ScenarioItem')

export const Scenario = z
  .object({
    add: z.array(ScenarioItem).max(1000).optional(),
    remove: z
      .array(text(200).min(1))
      .max(1000)
      .optional()
      .openapi({ description: "recurring items by id or name, or `budget:CATEGORY` for a category's budget" }),
  })
  .strict()
  .openapi('Scenario')
export type Scenario = z.infer<typeof Scenario>

export const ForecastRequest = z
  .object({
    from: IsoDate.optional().openapi({ description: 'the first day (default today); the balance is the one at its start' }),
    days: z.number().int().min(1).max(MAX_FORECAST_DAYS),
    bank_account_id: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: 'one account: its balance and its recurring items (budgets are left out)' }),
    version: VersionName.optional().openapi({ description: 'the budget version (default the current one)' }),
    scenario: Scenario.optional(),
    items: z.boolean().optional().openapi({ description: "each day's items in `days[].items` (default false: empty lists)" }),
  })
  .strict()
  .openapi('ForecastRequest')
export type ForecastRequest = z.infer<typeof ForecastRequest>

const ForecastItem = z.object({
  kind: z.enum(['recorded', 'recurring', 'budget', 'scenario']),
  name: z.string(),
  amount: z.number().openapi({ description: 'in the base currency' }),
  original: z.object({ amount: z.number(), currency: z.string() }).nullable().openapi({ description: 'the amount in its own currency' }),
  estimate: z.boolean().openapi({ description: "converted at the company's latest rate: an estimate" }),
  overdue: z.boolean().openapi({ description: 'a recurring payment due before the forecast began and not seen' }),
})

export const Forecast = z
  .object({
    currency: z.string(),
    from: IsoDate,
    to: IsoDate,
    bank_account_id: z.string().nullable(),
    budget_version: z.string().nullable(),
    starting_balance: z.number().openapi({ description: 'the balance at the start of `from`, as reports cash-flow counts it' }),
    ending_balance: z.number(),
    lowest: z
      .object({ date: IsoDate, balance: z.number() })
      .openapi({ description: 'the day whose closing balance is lowest (the first such day)' }),
    estimate: z.boolean().openapi({ description: 'some amount was converted at the latest rate' }),
    rates: z
      .array(z.object({ currency: z.string(), rate: z.string(), date: IsoDate }))
      .openapi({ description: 'the rates estimates used' }),
    notes: z.array(z.string()),
    days: z.array(z.object({ date: IsoDate, change: z.number(), balance: z.number(), items: z.array(ForecastItem) })),
  })
  .openapi('Forecast')
export type Forecast = z.infer<typeof Forecast>
