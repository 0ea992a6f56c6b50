/** Schemas of GET /api-v1/reports/cash-flow and /reports/summary (docs/api.md section 5). */
import { z } from '@hono/zod-openapi'
import { ACCOUNTING_CATEGORIES, IsoDate, UnconvertedTransactions } from '../schemas.js'
import { INTERVALS } from './periods.js'

const range = {
  from: IsoDate.optional().openapi({ description: 'first day, inclusive (default: the first day of the month 12 months ago)' }),
  to: IsoDate.optional().openapi({
    description: 'last day, inclusive (default: the last day of last month; today when only `from` is given)',
  }),
  bank_account_id: z.string().max(100).optional().openapi({ description: 'one bank account only' }),
  as_of: z.string().datetime({ offset: true }).optional().openapi({
    example: '2026-11-05T09:00:00Z',
    description: 'answer as the data stood at this moment, rebuilt from the audit trail (docs/audit.md); default now',
  }),
}

export const CashFlowQuery = z
  .object({
    ...range,
    interval: z.enum(INTERVALS).optional().openapi({ description: 'period length (default month); week = ISO week, Monday..Sunday' }),
  })
  .strict()
export type CashFlowQuery = z.infer<typeof CashFlowQuery>

export const SummaryQuery = z
  .object({
    ...range,
    top: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'how many top merchants (default 10)' }),
  })
  .strict()
export type SummaryQuery = z.infer<typeof SummaryQuery>

export const Flows = z
  .object({
    inflows: z.number().openapi({ description: 'sum of money in (positive amounts), base currency' }),
    outflows: z.number().openapi({ description: 'sum of money out, as a positive number' }),
    net: z.number().openapi({ description: 'inflows - outflows' }),
  })
  .openapi('ReportFlows')
export type Flows = z.infer<typeof Flows>

export const FlowsByCategory = z
  .object({ operations: Flows, investing: Flows, financing: Flows, uncategorized: Flows })
  .openapi('ReportFlowsByCategory', {
    description: 'cash_flow_category split; `uncategorized` holds transactions without one. Transfers are not here.',
  })

export const UnconvertedOpeningBalance = z
  .object({ bank_account_id: z.string(), name: z.string(), currency_code: z.string(), opening_balance: z.number() })
  .openapi('UnconvertedOpeningBalance', {
    description:
      'an account in another currency whose opening balance has no rate (no transaction of its own in its currency): left out of the balances',
  })

const Balances = {
  opening_balance: z.number().openapi({
    description:
      "balance at the start of the first day: the accounts' opening balances that count by then (their opening date on or before it) + every non-void transaction before it; a period's is the previous period's closing_balance",
  }),
  opened: z.number().openapi({
    description:
      "opening balances of accounts whose opening date falls after the report's first day, in the period: each counts from the start of its opening date (docs/money.md)",
  }),
  closing_balance: z.number().openapi({ description: 'opening_balance + net + transfers.net + opened' }),
}

export const CashFlowPeriod = z
  .object({
    period_start: IsoDate,
    period_end: IsoDate,
    label: z.string().openapi({ example: '2026-03', description: '2026-03-14, 2020-W53, 2026-03 or 2026-Q1' }),
    ...Balances,
    inflows: z.number(),
    outflows: z.number(),
    net: z.number(),
    by_category: FlowsByCategory,
    transfers: Flows,
  })
  .openapi('CashFlowPeriod')

export const CashFlowReport = z
  .object({
    currency: z.string(),
    from: IsoDate,
    to: IsoDate,
    interval: z.enum(INTERVALS),
    bank_account_id: z.string().nullable(),
    ...Balances,
    totals: Flows,
    by_category: FlowsByCategory,
    transfers: Flows.openapi({ description: 'cash_flow_category "transfer": shown, left out of totals and by_category' }),
    periods: z.array(CashFlowPeriod),
    unconverted_opening_balances: z.array(UnconvertedOpeningBalance),
  })
  .openapi('CashFlowReport')
export type CashFlowReport = z.infer<typeof CashFlowReport>

const Amount = z.number().openapi({ description: 'net amount (in - out), base currency' })

export const SummaryReport = z
  .object({
    currency: z.string(),
    from: IsoDate,
    to: IsoDate,
    bank_account_id: z.string().nullable(),
    income: z.number().openapi({ description: 'money in, transfers left out' }),
    expenses: z.number().openapi({ description: 'money out as a positive number, transfers left out' }),
    net: z.number(),
    transaction_count: z.number().int().openapi({ description: 'non-void transactions in the range, transfers included' }),
    pending_count: z.number().int(),
    unreconciled_count: z.number().int().openapi({ description: 'non-void transactions not reconciled' }),
    transfers: Flows.extend({ count: z.number().int() }),
    by_accounting_category: z.array(
      z.object({ accounting_category: z.enum(ACCOUNTING_CATEGORIES), amount: Amount, count: z.number().int() }),
    ),
    by_category: z.array(z.object({ category: z.string().nullable(), amount: Amount, count: z.number().int() })),
    top_merchants: z.array(z.object({ merchant_name: z.string(), amount: Amount, count: z.number().int() })),
    accounts: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        currency_code: z.string(),
        balance: z.number().openapi({
          description:
            "balance at the end of `to`, in the account's currency (`currency_code`), counted as BankAccount.current_balance; before the account's opening date its opening balance does not count yet",
        }),
        unconverted_transactions: z.array(UnconvertedTransactions),
      }),
    ),
    unconverted_opening_balances: z.array(UnconvertedOpeningBalance),
  })
  .openapi('SummaryReport')
export type SummaryReport = z.infer<typeof SummaryReport>
