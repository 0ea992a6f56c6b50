/**
 * The SQL of the reports. Every sum is taken in integer minor units by the database and read back
 * exactly (sums.ts). Void transactions are left out. Account balances: accounts/balances.ts.
 *
 * The queries are shaped for the covering indexes of migration 0004_reports, on keys since 0011
 * (company_key | account_key, transaction_date, cash_flow_category, accounting_category, category,
 * merchant_name, status, is_reconciled, base_amount): a date range is one index range scan, and
 * GROUP BY a prefix of the index order needs no sort on SQLite.
 */
import { sql, type Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import { exact, sumText } from '../sums.js'

/** What a report covers: a whole company, or one of its accounts (checked to be the company's first), by key. */
export type Scope = { column: 'company_key'; value: number } | { column: 'account_key'; value: number; accountId: string }

const INFLOW = sql`CASE WHEN base_amount > 0 THEN base_amount ELSE 0 END`
const OUTFLOW = sql`CASE WHEN base_amount < 0 THEN 0 - base_amount ELSE 0 END`

function scoped(db: Kysely<Db>, scope: Scope) {
  return db.selectFrom('transactions').where(scope.column, '=', scope.value).where('status', '!=', 'void')
}

export interface DayFlow {
  date: string
  cashFlow: string | null
  inflows: bigint
  outflows: bigint
}

/** Money in and out per day and cash-flow category, in the range. */
export async function flowsByDay(db: Kysely<Db>, scope: Scope, from: string, to: string): Promise<DayFlow[]> {
  const rows = await scoped(db, scope)
    .where('transaction_date', '>=', from)
    .where('transaction_date', '<=', to)
    .select(['transaction_date', 'cash_flow_category', sumText(INFLOW).as('inflows'), sumText(OUTFLOW).as('outflows')])
    .groupBy(['transaction_date', 'cash_flow_category'])
    .execute()
  return rows.map((r) => ({
    date: r.transaction_date,
    cashFlow: r.cash_flow_category,
    inflows: exact(r.inflows),
    outflows: exact(r.outflows),
  }))
}

/** Net of every transaction before a day (the movement part of an opening balance). */
export async function netBefore(db: Kysely<Db>, scope: Scope, before: string): Promise<bigint> {
  const row = await scoped(db, scope)
    .where('transaction_date', '<', before)
    .select(sumText(sql`base_amount`).as('net'))
    .executeTakeFirstOrThrow()
  return exact(row.net)
}

export interface SummaryGroup {
  cashFlow: string | null
  accounting: string | null
  category: string | null
  merchant: string | null
  count: number
  net: bigint
  inflows: bigint
  pending: number
  unreconciled: number
}

/**
 * Sums and counts per (cash-flow category, accounting category, category, merchant) in the range.
 * The inner GROUP BY starts with the day only so that it follows the index order (no sort of every
 * row on SQLite); the outer one merges the days' groups, a small sort.
 */
export async function summaryGroups(db: Kysely<Db>, scope: Scope, from: string, to: string): Promise<SummaryGroup[]> {
  const days = scoped(db, scope)
    .where('transaction_date', '>=', from)
    .where('transaction_date', '<=', to)
    .select([
      'cash_flow_category as cf',
      'accounting_category as ac',
      'category as ca',
      'merchant_name as m',
      sql<number>`COUNT(*)`.as('n'),
      sql<number>`SUM(base_amount)`.as('net'),
      sql<number>`SUM(${INFLOW})`.as('inflows'),
      sql<number>`SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END)`.as('pending'),
      sql<number>`SUM(CASE WHEN is_reconciled = 0 THEN 1 ELSE 0 END)`.as('unreconciled'),
    ])
    .groupBy(['transaction_date', 'cash_flow_category', 'accounting_category', 'category', 'merchant_name'])
  const rows = await db
    .selectFrom(days.as('g'))
    .select([
      'g.cf',
      'g.ac',
      'g.ca',
      'g.m',
      sumText(sql`g.n`).as('n'),
      sumText(sql`g.net`).as('net'),
      sumText(sql`g.inflows`).as('inflows'),
      sumText(sql`g.pending`).as('pending'),
      sumText(sql`g.unreconciled`).as('unreconciled'),
    ])
    .groupBy(['g.cf', 'g.ac', 'g.ca', 'g.m'])
    .execute()
  return rows.map((r) => ({
    cashFlow: r.cf,
    accounting: r.ac,
    category: r.ca,
    merchant: r.m,
    count: Number(r.n),
    net: exact(r.net),
    inflows: exact(r.inflows),
    pending: Number(r.pending),
    unreconciled: Number(r.unreconciled),
  }))
}

/**
 * The rate for an account's opening balance: the exchange rate of its earliest non-void
 * transaction in the account's own currency (the one nearest the opening; the same day: the
 * first created), or undefined.
 */
export async function openingRate(db: Kysely<Db>, accountKey: number, currency: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('transactions')
    .select('exchange_rate')
    .where('account_key', '=', accountKey)
    .where('currency_code', '=', currency)
    .where('status', '!=', 'void')
    // (account_key, transaction_date, seq) is an index: the first row found is the answer
    .orderBy('transaction_date', 'asc')
    .orderBy('seq', 'asc')
    .limit(1)
    .executeTakeFirst()
  return row?.exchange_rate
}

/** The first `n` non-void transactions of an account in its own currency, in openingRate's order. */
export async function firstInCurrency(
  db: Kysely<Db>,
  accountKey: number,
  currency: string,
  n: number,
): Promise<Array<{ transaction_date: string; seq: number; exchange_rate: string }>> {
  const rows = await db
    .selectFrom('transactions')
    .select(['transaction_date', 'seq', 'exchange_rate'])
    .where('account_key', '=', accountKey)
    .where('currency_code', '=', currency)
    .where('status', '!=', 'void')
    .orderBy('transaction_date', 'asc')
    .orderBy('seq', 'asc')
    .limit(n)
    .execute()
  return rows.map((r) => ({ transaction_date: r.transaction_date, seq: Number(r.seq), exchange_rate: r.exchange_rate }))
}
