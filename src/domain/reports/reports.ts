/**
 * Reports (docs/api.md section 5): cash flow by period and a financial summary. Amounts are in the
 * company's base currency, from each transaction's base_amount (converted and rounded half-even
 * once, per transaction, when it was written); void transactions are left out; transfers
 * (cash_flow_category "transfer") are shown on their own and left out of totals. The summary's
 * account balances are the exception: each in its account's currency, as accounts/balances.ts counts.
 *
 * Every sum is a BigInt of minor units until the JSON number is made from its decimal text. The
 * queries of one report run in one database transaction, so they see one state of the data.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { findBankAccount, unconvertedJson } from '../accounts/bank-accounts.js'
import { currencyExponent } from '../../kernel/currencies.js'
import { convertMinor, formatMinor, minorToNumber } from '../../kernel/money.js'
import { periodIndex, periodsOf, resolveRange, type Interval } from './periods.js'
import { flowsByDay, netBefore, summaryGroups, type Scope } from './queries.js'
import { movementsFromTotals } from '../accounts/balances.js'
import type { CashFlowQuery, CashFlowReport, Flows, SummaryQuery, SummaryReport } from './schemas.js'
import { companyKey } from '../transaction-rows.js'
import { baseCurrency } from '../accounts/companies.js'
import { accountsThen, asOfDelta, dayFlowsDelta, type DeltaRow, mergeGroups, moveAccounts, moveHeld, netBeforeDelta } from './as-of.js'
import { balanceOf, type Held, heldByOpening, type OpeningAccount, opened as isOpened } from '../accounts/opening.js'

const CATEGORIES = ['operations', 'investing', 'financing', 'uncategorized'] as const
type Category = (typeof CATEGORIES)[number]

interface Sums {
  inflows: bigint
  outflows: bigint
}
const zero = (): Sums => ({ inflows: 0n, outflows: 0n })
function add(into: Sums, s: Sums): void {
  into.inflows += s.inflows
  into.outflows += s.outflows
}

/** Turns exact minor units into the JSON numbers of the base currency. */
function money(currency: string) {
  const exp = currencyExponent(currency)
  const num = (minor: bigint): number => Number(formatMinor(minor, exp))
  const flows = (s: Sums): Flows => ({ inflows: num(s.inflows), outflows: num(s.outflows), net: num(s.inflows - s.outflows) })
  return { num, flows }
}

interface OpeningAccountOf extends OpeningAccount {
  id: string
  name: string
  /** Its opening balance in the base currency; null when it has no rate (unconverted). */
  base_value: bigint | null
}

interface Opening {
  /** The accounts in scope, with their opening balances in their own currency (minor units). */
  accounts: OpeningAccountOf[]
  /** What each account's opening balance holds (accounts/opening.ts), by key. */
  held: Map<number, Held>
  unconverted: CashFlowReport['unconverted_opening_balances']
}

/**
 * The accounts in scope and their opening balances, also in the base currency. An account in another
 * currency is converted at the rate it keeps, fixed when its opening balance was recorded
 * (accounts/opening-rate.ts; half-even, like a transaction), so no later write moves it; one without
 * (recorded before migration 0027, with no transaction in its currency then) is left out of the balances and listed
 * in `unconverted_opening_balances`.
 */
async function openingBalances(
  db: Kysely<Db>,
  companyId: string,
  scope: Scope,
  base: string,
  delta: readonly DeltaRow[],
  asOf?: string,
): Promise<Opening> {
  let q = db
    .selectFrom('bank_accounts')
    .select(['id', 'key', 'name', 'currency_code', 'opening_balance', 'opening_balance_date', 'opening_exchange_rate'])
    .where('company_id', '=', companyId)
  if (scope.column === 'account_key') q = q.where('key', '=', scope.value)
  // As it stood: an account opened since was not there, and its opening balance and date were as then.
  if (asOf !== undefined) q = q.where('created_at', '<=', new Date(asOf).toISOString())
  let rows = await q.orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
  if (asOf !== undefined) rows = await accountsThen(db, companyId, rows, new Date(asOf).toISOString())
  const out: Opening = { accounts: [], held: new Map(), unconverted: [] }
  for (const r of rows) {
    const minor = Number(r.opening_balance)
    let converted: bigint | null = BigInt(minor)
    if (minor !== 0 && r.currency_code !== base) {
      const rate = r.opening_exchange_rate
      if (rate === null) {
        converted = null
        out.unconverted.push({
          bank_account_id: r.id,
          name: r.name,
          currency_code: r.currency_code,
          opening_balance: Number(formatMinor(minor, currencyExponent(r.currency_code))),
        })
      } else converted = BigInt(convertMinor(minor, currencyExponent(r.currency_code), rate, currencyExponent(base)))
    }
    out.accounts.push({
      id: r.id,
      key: Number(r.key),
      name: r.name,
      currency_code: r.currency_code,
      opening_balance: BigInt(minor),
      opening_balance_date: r.opening_balance_date,
      base_value: converted,
    })
  }
  out.held = await heldByOpening(db, out.accounts, base)
  moveHeld(out.held, out.accounts, base, delta)
  return out
}

/**
 * What an account's opening balance brings to the base-currency balances from the start of its
 * opening date: its value (none when it has no rate: left out, and named) less what it holds,
 * which counted already at their dates.
 */
function entryOf(a: OpeningAccountOf, held: Map<number, Held>): bigint {
  return (a.base_value ?? 0n) - (held.get(a.key)?.base ?? 0n)
}

/** The scope of a request; an account of another company is a 404, like any unknown id. */
export async function scopeOf(store: Store, companyId: string, accountId: string | undefined): Promise<Scope> {
  if (accountId === undefined) return { column: 'company_key', value: await companyKey(store, companyId) }
  const account = await findBankAccount(store, companyId, accountId)
  return { column: 'account_key', value: account.key, accountId: account.id }
}

/** With `as_of`, the rows that differ then from now (as-of.ts), read on the report's snapshot; none without it. */
export async function deltaOf(
  store: Store,
  db: Kysely<Db>,
  companyId: string,
  scope: Scope,
  base: string,
  asOf: string | undefined,
): Promise<DeltaRow[]> {
  if (asOf === undefined) return []
  const company = scope.column === 'company_key' ? scope.value : await companyKey(store, companyId)
  return asOfDelta(store, db, companyId, company, scope, base, new Date(asOf).toISOString())
}

/** Run the queries of one report on one snapshot (SQLite: one deferred transaction; PostgreSQL: repeatable read). */
export function snapshot<T>(store: Store, fn: (db: Kysely<Db>) => Promise<T>): Promise<T> {
  return store.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn)
}

export async function cashFlowReport(store: Store, companyId: string, q: CashFlowQuery, now: Date): Promise<CashFlowReport> {
  const { from, to } = resolveRange(q, now)
  const interval: Interval = q.interval ?? 'month'
  const periods = periodsOf(from, to, interval)
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  const { opening, days } = await snapshot(store, async (db) => {
    const delta = await deltaOf(store, db, companyId, scope, base, q.as_of)
    const accounts = await openingBalances(db, companyId, scope, base, delta, q.as_of)
    const before = (await netBefore(db, scope, from)) + netBeforeDelta(delta, from)
    const days = [...(await flowsByDay(db, scope, from, to)), ...dayFlowsDelta(delta, from, to)]
    return { opening: { accounts, balance: before }, days }
  })
  // Opening balances count from the start of their date: by `from`, in the report's opening balance;
  // later in the range, in the period of their date.
  const opened = periods.map(() => 0n)
  for (const a of opening.accounts.accounts) {
    const od = a.opening_balance_date
    if (isOpened(od, from)) opening.balance += entryOf(a, opening.accounts.held)
    else if (od !== null && od <= to) opened[periodIndex(periods, od)] += entryOf(a, opening.accounts.held)
  }

  const buckets = periods.map(() => ({
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, zero()])) as Record<Category, Sums>,
    transfers: zero(),
  }))
  for (const d of days) {
    const b = buckets[periodIndex(periods, d.date)]
    const cf = d.cashFlow
    const target =
      cf === 'transfer'
        ? b.transfers
        : b.byCategory[(CATEGORIES as readonly string[]).includes(cf ?? '') ? (cf as Category) : 'uncategorized']
    add(target, d)
  }

  const m = money(base)
  const totalBy = Object.fromEntries(CATEGORIES.map((c) => [c, zero()])) as Record<Category, Sums>
  const totals = zero()
  const transfers = zero()
  let balance = opening.balance
  let openedTotal = 0n
  const outPeriods = periods.map((p, i) => {
    const b = buckets[i]
    const sum = zero()
    for (const c of CATEGORIES) {
      add(sum, b.byCategory[c])
      add(totalBy[c], b.byCategory[c])
    }
    add(totals, sum)
    add(transfers, b.transfers)
    const start = balance
    balance += sum.inflows - sum.outflows + b.transfers.inflows - b.transfers.outflows + opened[i]
    openedTotal += opened[i]
    return {
      period_start: p.start,
      period_end: p.end,
      label: p.label,
      opening_balance: m.num(start),
      opened: m.num(opened[i]),
      closing_balance: m.num(balance),
      ...m.flows(sum),
      by_category: byCategoryJson(b.byCategory, m.flows),
      transfers: m.flows(b.transfers),
    }
  })
  return {
    currency: base,
    from,
    to,
    interval,
    bank_account_id: scope.column === 'account_key' ? scope.accountId : null,
    opening_balance: m.num(opening.balance),
    opened: m.num(openedTotal),
    closing_balance: m.num(balance),
    totals: m.flows(totals),
    by_category: byCategoryJson(totalBy, m.flows),
    transfers: m.flows(transfers),
    periods: outPeriods,
    unconverted_opening_balances: opening.accounts.unconverted,
  }
}

function byCategoryJson(by: Record<Category, Sums>, flows: (s: Sums) => Flows): CashFlowReport['by_category'] {
  return {
    operations: flows(by.operations),
    investing: flows(by.investing),
    financing: flows(by.financing),
    uncategorized: flows(by.uncategorized),
  }
}

interface Tally {
  amount: bigint
  count: number
}

/** Largest magnitude first, then name: a stable order for the breakdowns. */
function ranked<K>(m: Map<K, Tally>, name: (k: K) => string): Array<[K, Tally]> {
  const abs = (x: bigint) => (x < 0n ? -x : x)
  return [...m.entries()].sort(([ka, a], [kb, b]) => {
    const d = abs(b.amount) - abs(a.amount)
    if (d !== 0n) return d > 0n ? 1 : -1
    return b.count - a.count || name(ka).localeCompare(name(kb))
  })
}

function tally<K>(m: Map<K, Tally>, key: K, amount: bigint, count: number): void {
  const t = m.get(key)
  if (t) {
    t.amount += amount
    t.count += count
  } else m.set(key, { amount, count })
}

export async function summaryReport(store: Store, companyId: string, q: SummaryQuery, now: Date): Promise<SummaryReport> {
  const { from, to } = resolveRange(q, now)
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, q.bank_account_id)
  const { opening, groups, moved } = await snapshot(store, async (db) => {
    const delta = await deltaOf(store, db, companyId, scope, base, q.as_of)
    const opening = await openingBalances(db, companyId, scope, base, delta, q.as_of)
    const groups = mergeGroups(await summaryGroups(db, scope, from, to), delta, from, to)
    // Each account's balance at the end of `to`, in its own currency, as `accounts get` counts it.
    const moved = await movementsFromTotals(db, opening.accounts, base, to, scope.column === 'company_key' ? scope.value : undefined)
    moveAccounts(moved, opening.accounts, base, delta, to)
    return { opening, groups, moved }
  })

  const income = zero()
  const transfers = zero()
  let transferCount = 0
  let count = 0
  let pending = 0
  let unreconciled = 0
  const byAccounting = new Map<string, Tally>()
  const byCategory = new Map<string | null, Tally>()
  const byMerchant = new Map<string, Tally>()
  for (const g of groups) {
    count += g.count
    pending += g.pending
    unreconciled += g.unreconciled
    const flows = { inflows: g.inflows, outflows: g.inflows - g.net }
    if (g.cashFlow === 'transfer') {
      add(transfers, flows)
      transferCount += g.count
      continue
    }
    add(income, flows)
    tally(byAccounting, g.accounting ?? 'uncategorized', g.net, g.count)
    tally(byCategory, g.category, g.net, g.count)
    if (g.merchant !== null) tally(byMerchant, g.merchant, g.net, g.count)
  }

  const m = money(base)
  return {
    currency: base,
    from,
    to,
    bank_account_id: scope.column === 'account_key' ? scope.accountId : null,
    income: m.num(income.inflows),
    expenses: m.num(income.outflows),
    net: m.num(income.inflows - income.outflows),
    transaction_count: count,
    pending_count: pending,
    unreconciled_count: unreconciled,
    transfers: { ...m.flows(transfers), count: transferCount },
    by_accounting_category: ranked(byAccounting, (k) => k).map(([k, t]) => ({
      accounting_category: k as SummaryReport['by_accounting_category'][number]['accounting_category'],
      amount: m.num(t.amount),
      count: t.count,
    })),
    by_category: ranked(byCategory, (k) => k ?? '').map(([k, t]) => ({ category: k, amount: m.num(t.amount), count: t.count })),
    top_merchants: ranked(byMerchant, (k) => k)
      .slice(0, q.top ?? 10)
      .map(([k, t]) => ({ merchant_name: k, amount: m.num(t.amount), count: t.count })),
    accounts: opening.accounts.map((a) => {
      const balance = balanceOf(a, moved.get(a.key) ?? { net: 0n, unconverted: [] }, opening.held.get(a.key), to)
      return {
        id: a.id,
        name: a.name,
        currency_code: a.currency_code,
        balance: minorToNumber(balance.net, a.currency_code),
        unconverted_transactions: unconvertedJson(balance.unconverted),
      }
    }),
    unconverted_opening_balances: opening.unconverted,
  }
}
