/**
 * The queries of the reports. Every sum is taken in integer minor units by the database and read back
 * exactly (store/fragments.ts, sums.ts). Void transactions are left out. Account balances: accounts/balances.ts.
 *
 * Most of a report reads the totals kept with the rows (store/report-totals.ts, migration 0018): the
 * day totals for cash flow, opening balances and account balances, the month totals for the summary's
 * whole months. Only the days at the ends of a summary's range that do not make a whole month read the
 * rows, through the covering indexes of migration 0004_reports, on keys since 0011 (company_key |
 * account_key, transaction_date, cash_flow_category, accounting_category, category, merchant_name,
 * status, is_reconciled, base_amount): one index range scan, and GROUP BY a prefix of the index order
 * needs no sort on SQLite.
 */
import type { Kysely } from 'kysely'
import { countAll, exactNetOfFlows, exactSum, rowSums } from '../../store/fragments.js'
import type { Db } from '../../store/schema.js'
import { exact } from '../sums.js'

/** What a report covers: a whole company, or one of its accounts (checked to be the company's first), by key. */
export type Scope = { column: 'company_key'; value: number } | { column: 'account_key'; value: number; accountId: string }

function scoped(db: Kysely<Db>, scope: Scope) {
  return db.selectFrom('transactions').where(scope.column, '=', scope.value).where('status', '!=', 'void')
}

export interface DayFlow {
  date: string
  cashFlow: string | null
  inflows: bigint
  outflows: bigint
}

/** Money in and out per day and cash-flow category, in the range, from the kept totals (store/report-totals.ts). */
export async function flowsByDay(db: Kysely<Db>, scope: Scope, from: string, to: string): Promise<DayFlow[]> {
  const rows = await db
    .selectFrom('report_day_flows')
    .where(scope.column, '=', scope.value)
    .where('transaction_date', '>=', from)
    .where('transaction_date', '<=', to)
    .select(['transaction_date', 'cash_flow', exactSum('inflows').as('inflows'), exactSum('outflows').as('outflows')])
    .groupBy(['transaction_date', 'cash_flow'])
    .execute()
  return rows.map((r) => ({
    date: r.transaction_date,
    cashFlow: r.cash_flow === '' ? null : r.cash_flow.slice(1),
    inflows: exact(r.inflows),
    outflows: exact(r.outflows),
  }))
}

/** Net of every transaction before a day (the movement part of an opening balance), from the kept totals. */
export async function netBefore(db: Kysely<Db>, scope: Scope, before: string): Promise<bigint> {
  const row = await db
    .selectFrom('report_day_flows')
    .where(scope.column, '=', scope.value)
    .where('transaction_date', '<', before)
    .select(exactNetOfFlows().as('net'))
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
 * Sums and counts per (cash-flow category, accounting category, category, merchant) in a range, from
 * the rows: for the days of a range that do not make a whole month. The inner GROUP BY starts with the day only so that it follows the index order (no sort of every
 * row on SQLite); the outer one merges the days' groups, a small sort.
 */
async function rowGroups(db: Kysely<Db>, scope: Scope, from: string, to: string): Promise<SummaryGroup[]> {
  const days = scoped(db, scope)
    .where('transaction_date', '>=', from)
    .where('transaction_date', '<=', to)
    .select([
      'cash_flow_category as cf',
      'accounting_category as ac',
      'category as ca',
      'merchant_name as m',
      countAll().as('n'),
      rowSums.net().as('net'),
      rowSums.inflows().as('inflows'),
      rowSums.pending().as('pending'),
      rowSums.unreconciled().as('unreconciled'),
    ])
    .groupBy(['transaction_date', 'cash_flow_category', 'accounting_category', 'category', 'merchant_name'])
  const rows = await db
    .selectFrom(days.as('g'))
    .select([
      'g.cf',
      'g.ac',
      'g.ca',
      'g.m',
      exactSum('g.n').as('n'),
      exactSum('g.net').as('net'),
      exactSum('g.inflows').as('inflows'),
      exactSum('g.pending').as('pending'),
      exactSum('g.unreconciled').as('unreconciled'),
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

/** The same groups from the kept month totals, months `fromMonth` to `toMonth` ('YYYY-MM') inclusive. */
async function monthGroups(db: Kysely<Db>, scope: Scope, fromMonth: string, toMonth: string): Promise<SummaryGroup[]> {
  const rows = await db
    .selectFrom('report_month_groups')
    .where(scope.column, '=', scope.value)
    .where('month', '>=', fromMonth)
    .where('month', '<=', toMonth)
    .select([
      'cash_flow',
      'accounting',
      'category',
      'merchant',
      exactSum('n').as('n'),
      exactSum('net').as('net'),
      exactSum('inflows').as('inflows'),
      exactSum('pending').as('pending'),
      exactSum('unreconciled').as('unreconciled'),
    ])
    .groupBy(['cash_flow', 'accounting', 'category', 'merchant'])
    .execute()
  const value = (k: string) => (k === '' ? null : k.slice(1))
  return rows
    .map((r) => ({
      cashFlow: value(r.cash_flow),
      accounting: value(r.accounting),
      category: value(r.category),
      merchant: value(r.merchant),
      count: Number(r.n),
      net: exact(r.net),
      inflows: exact(r.inflows),
      pending: Number(r.pending),
      unreconciled: Number(r.unreconciled),
    }))
    .filter((g) => g.count > 0) // a group whose rows were all deleted or voided
}

/** Months as one number (year * 12 + month - 1), so that the calendar's ends need no Date. */
const monthOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1
const monthText = (m: number) => `${String(Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`
function lastDay(m: number): string {
  const [y, mo] = [Math.floor(m / 12), (m % 12) + 1]
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31
  return `${monthText(m)}-${days}`
}

/**
 * Sums and counts per (cash-flow category, accounting category, category, merchant) in the range:
 * its whole months from the kept month totals, the days before the first whole month and after the
 * last from the rows, merged.
 */
export async function summaryGroups(db: Kysely<Db>, scope: Scope, from: string, to: string): Promise<SummaryGroup[]> {
  const headWhole = from.endsWith('-01')
  const tailWhole = to === lastDay(monthOf(to))
  const first = monthOf(from) + (headWhole ? 0 : 1)
  const last = monthOf(to) - (tailWhole ? 0 : 1)
  if (first > last) return rowGroups(db, scope, from, to)
  const parts = [await monthGroups(db, scope, monthText(first), monthText(last))]
  if (!headWhole) parts.push(await rowGroups(db, scope, from, lastDay(monthOf(from))))
  if (!tailWhole) parts.push(await rowGroups(db, scope, `${monthText(monthOf(to))}-01`, to))
  if (parts.length === 1) return parts[0]
  const merged = new Map<string, SummaryGroup>()
  for (const g of parts.flat()) {
    const k = JSON.stringify([g.cashFlow, g.accounting, g.category, g.merchant])
    const m = merged.get(k)
    if (!m) merged.set(k, { ...g })
    else {
      m.count += g.count
      m.net += g.net
      m.inflows += g.inflows
      m.pending += g.pending
      m.unreconciled += g.unreconciled
    }
  }
  return [...merged.values()]
}
