/**
 * Deterministic synthetic transactions for the `pg` and `list` sections: a seeded PRNG, dates
 * spread evenly over three years (in date order), 21 categories with skewed weights (a few common, one very rare), signed
 * amounts per category, three accounts with unequal shares, statuses and some tags.
 */

import { mulberry32 } from '../../src/kernel/random.js'
import type { NewTransactionRow } from '../../src/store/transaction-codec.js'

/** The seeded PRNG of the generated data (mulberry32). */
export const prng = mulberry32

interface CategorySpec {
  name: string
  /** Share of all transactions, in percent (the weights sum to 100). */
  weight: number
  accounting: string
  cashFlow: string
  /** Amount range in minor units (cents); negative = money out. */
  min: number
  max: number
  merchants: string[]
}

export const CATEGORIES: CategorySpec[] = [
  {
    name: 'Groceries',
    weight: 11.98,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -25_000,
    max: -500,
    merchants: ['FreshMart', 'GreenGrocer', 'Costco', 'Trader Jim'],
  },
  {
    name: 'Software',
    weight: 10,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -200_000,
    max: -900,
    merchants: ['GitHub', 'Atlassian', 'AWS', 'Figma', 'Slack'],
  },
  {
    name: 'Travel',
    weight: 8,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -300_000,
    max: -2_000,
    merchants: ['United', 'Delta', 'Marriott', 'Hilton', 'Uber'],
  },
  {
    name: 'Meals',
    weight: 8,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -30_000,
    max: -800,
    merchants: ['Sweetgreen', 'Chipotle', 'Blue Bottle', 'Local Diner'],
  },
  {
    name: 'Payroll',
    weight: 7,
    accounting: 'payroll',
    cashFlow: 'operations',
    min: -1_500_000,
    max: -200_000,
    merchants: ['Gusto', 'ADP'],
  },
  {
    name: 'Office Supplies',
    weight: 6,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -50_000,
    max: -300,
    merchants: ['Staples', 'Office Depot', 'Amazon'],
  },
  {
    name: 'Marketing',
    weight: 5,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -500_000,
    max: -5_000,
    merchants: ['Google Ads', 'Meta Ads', 'LinkedIn'],
  },
  {
    name: 'Fuel',
    weight: 5,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -15_000,
    max: -2_000,
    merchants: ['Shell', 'Chevron', 'BP'],
  },
  {
    name: 'Utilities',
    weight: 5,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -80_000,
    max: -5_000,
    merchants: ['PG&E', 'City Water', 'ConEd'],
  },
  {
    name: 'Rent',
    weight: 4,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -900_000,
    max: -250_000,
    merchants: ['Landmark Properties', 'WeWork'],
  },
  {
    name: 'Professional Services',
    weight: 4,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -800_000,
    max: -20_000,
    merchants: ['Deloitte', 'Smith & Co LLP'],
  },
  {
    name: 'Shipping',
    weight: 4,
    accounting: 'cost_of_goods_sold',
    cashFlow: 'operations',
    min: -60_000,
    max: -700,
    merchants: ['UPS', 'FedEx', 'USPS'],
  },
  {
    name: 'Subscriptions',
    weight: 4,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -20_000,
    max: -500,
    merchants: ['Netflix', 'Spotify', 'NYTimes'],
  },
  {
    name: 'Insurance',
    weight: 3,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -400_000,
    max: -10_000,
    merchants: ['Geico', 'Hiscox'],
  },
  { name: 'Bank Fees', weight: 3, accounting: 'other_expense', cashFlow: 'operations', min: -5_000, max: -100, merchants: ['Bank'] },
  {
    name: 'Equipment',
    weight: 3,
    accounting: 'capital_expenditure',
    cashFlow: 'investing',
    min: -900_000,
    max: -10_000,
    merchants: ['Apple', 'Dell', 'B&H'],
  },
  {
    name: 'Telecom',
    weight: 3,
    accounting: 'operating_expenses',
    cashFlow: 'operations',
    min: -40_000,
    max: -2_000,
    merchants: ['Verizon', 'AT&T', 'Comcast'],
  },
  {
    name: 'Taxes',
    weight: 2,
    accounting: 'taxes',
    cashFlow: 'operations',
    min: -2_000_000,
    max: -10_000,
    merchants: ['IRS', 'State Tax Board'],
  },
  {
    name: 'Sales',
    weight: 2,
    accounting: 'revenue',
    cashFlow: 'operations',
    min: 5_000,
    max: 5_000_000,
    merchants: ['Stripe', 'Shopify', 'Wire transfer'],
  },
  {
    name: 'Refunds',
    weight: 2,
    accounting: 'other_income',
    cashFlow: 'operations',
    min: 500,
    max: 50_000,
    merchants: ['Amazon', 'United', 'Staples'],
  },
  // A rare category (0.02%: 200 rows in 1,000,000), as a company has a few.
  {
    name: 'Donations',
    weight: 0.02,
    accounting: 'other_expense',
    cashFlow: 'operations',
    min: -100_000,
    max: -1_000,
    merchants: ['Red Cross', 'Local Food Bank'],
  },
]

/** Share of transactions per account (three accounts). */
export const ACCOUNT_SHARES = [0.5, 0.3, 0.2]

export const DATE_FROM = '2024-01-01'
/** Three years of days: 2024-01-01 .. 2026-12-31. */
export const DAYS = 1096

const TAG_SETS = [['recurring'], ['reimbursable'], ['q-review'], ['recurring', 'q-review'], ['project-apollo']]

export interface GeneratedTx {
  date: string
  /** ISO timestamp on that day (created_at / updated_at). */
  timestamp: string
  account: number
  amountMinor: number
  category: string
  accounting: string
  cashFlow: string
  merchant: string
  description: string
  tags: string[]
  status: 'pending' | 'posted' | 'void'
  reconciled: boolean
  /** A UUID v4 from the PRNG (so the same seed gives the same ids). */
  id: string
}

const DAY_MS = 86_400_000
const epoch = Date.parse(`${DATE_FROM}T00:00:00Z`)
const dates = Array.from({ length: DAYS }, (_, i) => new Date(epoch + i * DAY_MS).toISOString().slice(0, 10))
const cumulative = (() => {
  let acc = 0
  return CATEGORIES.map((c) => (acc += c.weight))
})()

function hex(rand: () => number, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += ((rand() * 16) | 0).toString(16)
  return s
}

/**
 * A stream of `n` transactions in date order (as bank feeds arrive), spread evenly over the days;
 * the same seed always gives the same stream. Date order matters for loading: indexes that start
 * with the date (or created_at) grow at their end, as they do in use, instead of at random places.
 */
export function* generateTransactions(seed: number, n: number): Generator<GeneratedTx> {
  const rand = prng(seed)
  for (let i = 0; i < n; i++) {
    const at = (i * DAYS) / n
    const day = Math.floor(at)
    const date = dates[day]
    const ms = Math.floor((at - day) * DAY_MS)
    const timestamp = `${date}T${new Date(ms).toISOString().slice(11)}`
    const a = rand()
    const account = a < ACCOUNT_SHARES[0] ? 0 : a < ACCOUNT_SHARES[0] + ACCOUNT_SHARES[1] ? 1 : 2
    const w = rand() * 100
    let ci = 0
    while (ci < CATEGORIES.length - 1 && cumulative[ci] <= w) ci++
    const c = CATEGORIES[ci]
    const amountMinor = Math.round(c.min + rand() * (c.max - c.min)) || c.max
    const merchant = c.merchants[(rand() * c.merchants.length) | 0]
    const t = rand()
    const tags = t < 0.2 ? TAG_SETS[(t * 5 * TAG_SETS.length) | 0] : []
    const s = rand()
    const status = s < 0.8 ? 'posted' : s < 0.98 ? 'pending' : 'void'
    const reconciled = status === 'posted' && rand() < 0.75
    const v = ((rand() * 4) | 0) + 8 // variant 10xx
    const id = `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-${v.toString(16)}${hex(rand, 3)}-${hex(rand, 12)}`
    yield {
      date,
      timestamp,
      account,
      amountMinor,
      category: c.name,
      accounting: c.accounting,
      cashFlow: c.cashFlow,
      merchant,
      description: `${merchant} ${c.name.toLowerCase()} #${(i % 9973) + 1}`,
      tags,
      status,
      reconciled,
      id,
    }
  }
}

/** Minor units (cents) as the decimal text the API accepts: -123456 -> "-1234.56". */
export function centsToDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(minor)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** A generated transaction as a row to insert (USD, the base currency), into the account of those keys. */
export function transactionRow(t: GeneratedTx, account: { companyKey: number; accountKey: number; accountId: string }): NewTransactionRow {
  return {
    id: t.id,
    company_key: account.companyKey,
    account_key: account.accountKey,
    bank_account_id: account.accountId,
    bank_statement_id: null,
    transaction_date: t.date,
    posted_date: t.date,
    description: t.description,
    original_description: t.description,
    amount: t.amountMinor,
    currency_code: 'USD',
    exchange_rate: '1',
    base_amount: t.amountMinor,
    category: t.category,
    accounting_category: t.accounting,
    cash_flow_category: t.cashFlow,
    merchant_name: t.merchant,
    status: t.status,
    is_reconciled: t.reconciled ? 1 : 0,
    ai_confidence_score: null,
    tags: JSON.stringify(t.tags),
    created_at: t.timestamp,
    updated_at: t.timestamp,
  }
}
