/** Schemas of GET /api-v1/exports/transactions and /exports/opening-balances (docs/api.md section 7). */
import { z } from '@hono/zod-openapi'
import { IsoDate, Transaction } from '../schemas.js'

const scope = {
  bank_account_id: z.string().max(100).optional().openapi({ description: 'one bank account only' }),
}

const asOf = z.string().datetime({ offset: true }).openapi({
  example: '2026-11-05T09:00:00Z',
  description: 'as the data stood at this moment, rebuilt from the audit trail (docs/audit.md)',
})

export const ExportTransactionsQuery = z
  .object({
    from: IsoDate.optional().openapi({ description: 'first day, inclusive (default as for reports: 12 calendar months back)' }),
    to: IsoDate.optional().openapi({ description: 'last day, inclusive (default as for reports)' }),
    ...scope,
    limit: z.coerce.number().int().min(1).max(5000).optional().openapi({ description: 'rows a page (default 1000, at most 5000)' }),
    cursor: z.string().max(500).optional().openapi({ description: 'next_cursor of the previous page, unchanged' }),
  })
  .strict()
export type ExportTransactionsQuery = z.infer<typeof ExportTransactionsQuery>

export const ExportTransaction = Transaction.extend({
  exchange_rate_exact: z.string().openapi({ description: 'the rate to the base currency as stored: exact decimal text' }),
  base_amount: z.number().openapi({
    description: 'the amount in the base currency: amount × rate rounded half-even once, as the reports count it',
  }),
}).openapi('ExportTransaction')
export type ExportTransaction = z.infer<typeof ExportTransaction>

export const OpeningBalancesQuery = z
  .object({
    from: IsoDate.openapi({ description: 'the first day of the export: balances are those before it' }),
    ...scope,
    as_of: asOf.optional(),
  })
  .strict()
export type OpeningBalancesQuery = z.infer<typeof OpeningBalancesQuery>

const Movement = z.object({
  currency_code: z.string(),
  amount: z.number().openapi({ description: 'sum of the non-void amounts in this currency' }),
  base_amount: z.number().openapi({ description: 'sum of their base amounts' }),
})

export const OpeningBalances = z
  .object({
    from: IsoDate,
    currency: z.string().openapi({ description: "the company's base currency" }),
    accounts: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        account_type: z.string(),
        currency_code: z.string(),
        opening_balance: z.number().openapi({ description: "the account's opening balance, in its currency" }),
        opening_base: z.number().nullable().openapi({
          description: 'the opening balance in the base currency, at the rate reports use; null when there is none (unconverted)',
        }),
        opening_balance_date: IsoDate.nullable().openapi({
          description: 'the day the opening balance counts from (from its start); null: from the beginning',
        }),
        before: z.array(Movement).openapi({
          description:
            'the non-void transactions before `from` that count in the balance at its start: when the opening date is on or before `from`, those since the opening date (the opening balance holds what came before it); else every one',
        }),
        held: z.array(Movement).openapi({
          description:
            'the non-void transactions dated before the opening date (written before such dates were refused): its opening balance holds them (docs/money.md); almost always empty',
        }),
      }),
    ),
  })
  .openapi('OpeningBalances')
export type OpeningBalances = z.infer<typeof OpeningBalances>

export const ExportGroupsQuery = z
  .object({
    from: IsoDate.openapi({ description: 'first day, inclusive' }),
    to: IsoDate.openapi({ description: 'last day, inclusive' }),
    ...scope,
    as_of: asOf.optional(),
  })
  .strict()
export type ExportGroupsQuery = z.infer<typeof ExportGroupsQuery>

export const ExportGroups = z
  .object({
    from: IsoDate,
    to: IsoDate,
    currency: z.string().openapi({ description: "the company's base currency" }),
    groups: z.array(
      z.object({
        bank_account_id: z.string(),
        category: z.string().nullable(),
        accounting_category: z.string().nullable(),
        cash_flow_category: z.string().nullable(),
        count: z.number().int().openapi({ description: 'non-void transactions' }),
        base_in: z.number().openapi({ description: 'sum of their positive base amounts' }),
        base_out: z.number().openapi({ description: 'sum of their negative base amounts (0 or less)' }),
      }),
    ),
  })
  .openapi('ExportGroups', {
    description:
      "a period's non-void transactions grouped by bank account and categories: what a chart export posts, before it reads a row",
  })
export type ExportGroups = z.infer<typeof ExportGroups>

export const ExportAsOfQuery = z.object({ from: IsoDate, to: IsoDate, ...scope, as_of: asOf }).strict()
export type ExportAsOfQuery = z.infer<typeof ExportAsOfQuery>

export const ExportAsOf = z
  .object({
    as_of: z.string(),
    ids: z.array(z.string()).openapi({ description: 'transactions whose state now differs from then: leave them out of the pages' }),
    rows: z
      .array(ExportTransaction)
      .openapi({ description: 'those that existed then, as they stood, within the period and scope, in date order' }),
  })
  .openapi('ExportAsOf')
export type ExportAsOf = z.infer<typeof ExportAsOf>
