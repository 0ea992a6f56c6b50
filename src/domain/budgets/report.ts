/**
 * Budget against actual (docs/budgets.md): per category and period, the budget (in the base
 * currency, rollover included), the actual spending, the variance and the percent used, and the
 * spending of categories without a budget. Actuals are the summary's: the same groups of the kept
 * totals (reports/queries.ts summaryGroups, with --as-of's rows merged as reports/as-of.ts does), so
 * a category's actual over a period is exactly minus its `by_category` amount in `reports summary`,
 * and a period's actuals and unbudgeted spending add up to minus the cash-flow report's net.
 */
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { validation } from '../../kernel/errors.js'
import { convertMinor, divHalfEven, formatMinor } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { baseCurrency } from '../accounts/companies.js'
import { mergeGroups } from '../reports/as-of.js'
import { type Period, periodsOf } from '../reports/periods.js'
import { type Scope, summaryGroups } from '../reports/queries.js'
import { exactSum } from '../../store/fragments.js'
import { exact } from '../sums.js'
import { deltaOf, scopeOf, snapshot } from '../reports/reports.js'
import { type BudgetRowLive, budgetsOf, versionOf } from './budgets.js'
import { lastDayOf, monthNumber, monthText } from './months.js'
import type { BudgetReport, BudgetReportQuery } from './schemas.js'

type Interval = BudgetReport['interval']

/** The periods of the report: months or quarters as the other reports cut them, years made of months. */
export function budgetPeriods(from: string, to: string, interval: Interval): Period[] {
  if (interval !== 'year') return periodsOf(from, to, interval)
  const out: Period[] = []
  for (const m of periodsOf(from, to, 'month')) {
    const year = m.start.slice(0, 4)
    const last = out.at(-1)
    if (last && last.label === year) last.end = m.end
    else out.push({ start: m.start, end: m.end, label: year })
  }
  return out
}

/** Spending per category (null: no category) over a range: minus the net of the summary's groups, transfers left out. */
export function spendingOf(groups: ReadonlyArray<{ cashFlow: string | null; category: string | null; net: bigint; count: number }>) {
  const out = new Map<string | null, bigint>()
  for (const g of groups) {
    if (g.cashFlow === 'transfer' || g.count === 0) continue
    out.set(g.category, (out.get(g.category) ?? 0n) - g.net)
  }
  return out
}

/** A month's budget in the base currency: the rate of its last day (or the latest before), else the latest known, marked an estimate. */
async function converter(db: Kysely<Db>, companyId: string, base: string, rows: readonly BudgetRowLive[]) {
  const foreign = [...new Set(rows.filter((r) => r.currency_code !== base).map((r) => r.currency_code))]
  const rates = new Map<string, Array<{ date: string; rate: string }>>()
  for (const c of foreign) {
    const list = await db
      .selectFrom('exchange_rates')
      .select(['rate_date', 'rate'])
      .where('company_id', '=', companyId)
      .where('currency_code', '=', c)
      .orderBy('rate_date')
      .execute()
    if (list.length === 0)
      throw validation(
        'version',
        `a budget is in ${c} and the company has no rate of ${c} to ${base}: set one with \`finctl rates set --currency ${c}\` or import rates`,
      )
    rates.set(
      c,
      list.map((r) => ({ date: r.rate_date, rate: r.rate })),
    )
  }
  return (r: BudgetRowLive): { minor: bigint; estimate: boolean } => {
    if (r.currency_code === base) return { minor: BigInt(r.amount), estimate: false }
    const list = rates.get(r.currency_code)!
    const end = lastDayOf(r.month)
    let at = -1
    for (let lo = 0, hi = list.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1
      if (list[mid].date <= end) {
        at = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    // A month before the first rate takes the first; one whose month has no rate of its own is an estimate.
    const chosen = list[at < 0 ? 0 : at]
    const estimate = at < 0 || chosen.date < `${r.month}-01`
    const minor = convertMinor(r.amount, currencyExponent(r.currency_code), chosen.rate, currencyExponent(base))
    return { minor: BigInt(minor), estimate }
  }
}

/**
 * Spending per whole month and category from the kept month totals in one query (the summary's
 * monthGroups, grouped by month and category instead of by merchant): what a budget report of whole
 * months reads instead of a summary per month.
 */
export async function monthlySpending(db: Kysely<Db>, scope: Scope, fromMonth: string, toMonth: string) {
  const rows = await db
    .selectFrom('report_month_groups')
    .where(scope.column, '=', scope.value)
    .where('month', '>=', fromMonth)
    .where('month', '<=', toMonth)
    .where('cash_flow', '!=', '.transfer')
    .select(['month', 'category', exactSum('net').as('net'), exactSum('n').as('n')])
    .groupBy(['month', 'category'])
    .execute()
  const out = new Map<string, Map<string | null, bigint>>()
  for (const r of rows) {
    if (Number(r.n) === 0) continue
    let m = out.get(r.month)
    if (!m) {
      m = new Map()
      out.set(r.month, m)
    }
    const category = r.category === '' ? null : r.category.slice(1)
    m.set(category, (m.get(category) ?? 0n) - exact(r.net))
  }
  return out
}

interface Cell {
  budget: bigint
  carry: bigint
  actual: bigint
  currency: string
  estimate: boolean
}

export async function budgetReport(store: Store, companyId: string, q: BudgetReportQuery, now: Date): Promise<BudgetReport> {
  const year = now.toISOString().slice(0, 4)
  const from = q.from ?? `${year}-01-01`
  const to = q.to ?? (q.from ? `${from.slice(0, 4)}-12-31` : `${year}-12-31`)
  if (from > to) throw validation('from', `must be on or before \`to\` (${to})`)
  const interval: Interval = q.interval ?? 'month'
  const periods = budgetPeriods(from, to, interval)
  const base = await baseCurrency(store, companyId)
  const scope = await scopeOf(store, companyId, undefined)
  const asOf = q.as_of === undefined ? undefined : new Date(q.as_of).toISOString()
  const toMonth = to.slice(0, 7)

  return snapshot(store, async (db) => {
    const version = await versionOf(db, companyId, q.version)
    const delta = await deltaOf(store, db, companyId, scope, base, q.as_of)
    const all = await budgetsOf(db, companyId, version, { to: toMonth, asOf })
    const convert = await converter(db, companyId, base, all)
    // Each budgeted month in base minor units, by category then month.
    const budgetOf = new Map<string, Map<string, { minor: bigint; rollover: boolean; currency: string; estimate: boolean }>>()
    let chainStart: string | undefined
    for (const r of all) {
      let m = budgetOf.get(r.category)
      if (!m) {
        m = new Map()
        budgetOf.set(r.category, m)
      }
      m.set(r.month, { ...convert(r), rollover: r.rollover === 1, currency: r.currency_code })
      if (r.rollover === 1 && (chainStart === undefined || r.month < chainStart)) chainStart = r.month
    }

    // Whole months from one query of the month totals (without --as-of); a partial month, or any month
    // --as-of, as the summary reads it.
    const before = chainStart === undefined ? undefined : monthText(monthNumber(chainStart) - 1)
    const firstMonth = before !== undefined && before < from.slice(0, 7) ? before : from.slice(0, 7)
    const months = q.as_of === undefined ? await monthlySpending(db, scope, firstMonth, to.slice(0, 7)) : undefined
    const spent = async (start: string, end: string) => {
      if (months && start.endsWith('-01') && end === lastDayOf(end.slice(0, 7))) {
        const out = new Map<string | null, bigint>()
        for (let n = monthNumber(start.slice(0, 7)); n <= monthNumber(end.slice(0, 7)); n++)
          for (const [category, v] of months.get(monthText(n)) ?? []) out.set(category, (out.get(category) ?? 0n) + v)
        return out
      }
      return spendingOf(mergeGroups(await summaryGroups(db, scope, start, end), delta, start, end))
    }

    // Rollover: what each budgeted month brings to the next, for months before and in the range.
    const carryInto = new Map<string, Map<string, bigint>>()
    if (chainStart !== undefined) {
      const wholeMonths = new Map<string, Map<string | null, bigint>>()
      for (let n = monthNumber(chainStart) - 1; n < monthNumber(toMonth); n++) {
        const m = monthText(n)
        wholeMonths.set(m, await spent(`${m}-01`, lastDayOf(m)))
      }
      for (const [category, months] of budgetOf) {
        const carries = new Map<string, bigint>()
        let carry = 0n
        for (let n = Math.min(...[...months.keys()].map(monthNumber)); n <= monthNumber(toMonth); n++) {
          const m = monthText(n)
          const b = months.get(m)
          if (!b) {
            carry = 0n
            continue
          }
          const inflow = b.rollover ? carry : 0n
          if (inflow !== 0n) carries.set(m, inflow)
          const left = b.minor + inflow - (wholeMonths.get(m)?.get(category) ?? 0n)
          carry = left > 0n ? left : 0n
        }
        carryInto.set(category, carries)
      }
    }

    const exp = currencyExponent(base)
    const num = (minor: bigint) => Number(formatMinor(minor, exp))
    const percent = (actual: bigint, budget: bigint) => (budget === 0n ? null : Number(divHalfEven(actual * 1000n, budget)) / 10)
    const rowOf = (category: string, c: Cell) => ({
      category,
      budget: num(c.budget + c.carry),
      rollover: num(c.carry),
      actual: num(c.actual),
      variance: num(c.budget + c.carry - c.actual),
      percent_used: percent(c.actual, c.budget + c.carry),
      budget_currency: c.currency,
      estimate: c.estimate,
    })
    const totals = new Map<string, Cell>()
    const unbudgetedTotal = new Map<string | null, bigint>()
    const out: BudgetReport['periods'] = []
    for (const p of periods) {
      const actual = await spent(p.start, p.end)
      const cells = new Map<string, Cell>()
      for (const [category, months] of budgetOf) {
        for (let n = monthNumber(p.start.slice(0, 7)); n <= monthNumber(p.end.slice(0, 7)); n++) {
          const m = monthText(n)
          const b = months.get(m)
          if (!b) continue
          let c = cells.get(category)
          if (!c) {
            c = { budget: 0n, carry: 0n, actual: actual.get(category) ?? 0n, currency: b.currency, estimate: false }
            // Only what comes into the period's first budgeted month: inside a period a carry moves nothing.
            c.carry = carryInto.get(category)?.get(m) ?? 0n
            cells.set(category, c)
          }
          c.budget += b.minor
          c.estimate ||= b.estimate
        }
      }
      const rows = [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const unbudgeted = [...actual.entries()].filter(([category, v]) => (category === null || !cells.has(category)) && v !== 0n)
      let ub = 0n
      for (const [category, v] of unbudgeted) {
        ub += v
        unbudgetedTotal.set(category, (unbudgetedTotal.get(category) ?? 0n) + v)
      }
      let tb = 0n
      let ta = 0n
      for (const [category, c] of rows) {
        tb += c.budget + c.carry
        ta += c.actual
        const t = totals.get(category)
        if (!t) totals.set(category, { ...c })
        else {
          t.budget += c.budget
          t.actual += c.actual
          t.estimate ||= c.estimate
        }
      }
      out.push({
        label: p.label,
        period_start: p.start,
        period_end: p.end,
        rows: rows.map(([category, c]) => rowOf(category, c)),
        unbudgeted: { actual: num(ub), by_category: sortedSpending(unbudgeted).map(([category, v]) => ({ category, actual: num(v) })) },
        total: { budget: num(tb), actual: num(ta), variance: num(tb - ta) },
      })
    }
    let ubAll = 0n
    for (const v of unbudgetedTotal.values()) ubAll += v
    return {
      currency: base,
      version,
      from,
      to,
      interval,
      periods: out,
      totals: [...totals.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([category, c]) => {
          const { rollover: _carry, ...row } = rowOf(category, c)
          return row
        }),
      unbudgeted: {
        actual: num(ubAll),
        by_category: sortedSpending([...unbudgetedTotal.entries()].filter(([, v]) => v !== 0n)).map(([category, v]) => ({
          category,
          actual: num(v),
        })),
      },
    }
  })
}

/** Largest spending first, then by name (no category last). */
function sortedSpending(list: Array<[string | null, bigint]>): Array<[string | null, bigint]> {
  return list.sort(([ka, a], [kb, b]) => (a !== b ? (b > a ? 1 : -1) : ka === null ? 1 : kb === null ? -1 : ka < kb ? -1 : 1))
}
