/**
 * The cash forecast (docs/forecast.md): a balance per day from the balance at the start (and the
 * transactions already recorded in the range, as reports cash-flow counts them), the accepted
 * recurring items on their dates, and the unspent budget of each category without a recurring item
 * spread evenly over the rest of its month; a scenario adds and removes items. All in the base
 * currency in exact minor units; an item in another currency is converted at the company's latest
 * rate and marked an estimate.
 */
import type { Kysely } from 'kysely'
import { currencyExponent } from '../../kernel/currencies.js'
import { validation } from '../../kernel/errors.js'
import { didYouMean } from '../../kernel/near-names.js'
import { convertMinor, formatMinor, parseAmount } from '../../kernel/money.js'
import type { Db } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { baseCurrency } from '../accounts/companies.js'
import { findBankAccount } from '../accounts/bank-accounts.js'
import { cashFlowReport } from '../reports/reports.js'
import { budgetsOf, versionOf } from '../budgets/budgets.js'
import { lastDayOf } from '../budgets/months.js'
import { monthlySpending } from '../budgets/report.js'
import { companyKey } from '../transaction-rows.js'
import type { Forecast, ForecastRequest } from './forecast-schemas.js'
import { listRecurring, nextDue, scheduleOf } from './items.js'
import { type Interval, type Schedule, fromDay, nearestSlot, slotDay, toDay } from './schedule.js'

type Item = Forecast['days'][number]['items'][number]
interface Planned {
  day: number
  kind: Item['kind']
  name: string
  minor: bigint
  original: { minor: number; currency: string } | null
  estimate: boolean
  overdue: boolean
}

/** The latest rate of each currency asked for (any date), for estimates. */
async function latestRates(db: Kysely<Db>, companyId: string, currencies: Iterable<string>) {
  const out = new Map<string, { rate: string; date: string }>()
  for (const c of currencies) {
    const r = await db
      .selectFrom('exchange_rates')
      .select(['rate', 'rate_date'])
      .where('company_id', '=', companyId)
      .where('currency_code', '=', c)
      .orderBy('rate_date', 'desc')
      .limit(1)
      .executeTakeFirst()
    if (r) out.set(c, { rate: r.rate, date: r.rate_date })
  }
  return out
}

/** The days of a schedule's slots from `first` to `last` (day numbers), from slot `k0` on. */
function slotsBetween(s: Schedule, k0: number, first: number, last: number, endsOn: number | undefined): number[] {
  const out: number[] = []
  for (let k = k0; ; k++) {
    const d = slotDay(s, k)
    if (d > last || (endsOn !== undefined && d > endsOn)) break
    if (d >= first) out.push(d)
    if (out.length > 5000) break
  }
  return out
}

/** Whole number of minor units from a report's JSON amount (its shortest decimal text is the amount). */
const minorOfJson = (n: number, exp: number): bigint => {
  const r = parseAmount(String(n), exp)
  if (!r.ok) throw new Error(`${n} is not an amount`)
  return BigInt(r.minor)
}

export async function forecast(store: Store, companyId: string, q: ForecastRequest, now: Date): Promise<Forecast> {
  const today = now.toISOString().slice(0, 10)
  const from = q.from ?? today
  const first = toDay(from)
  const last = first + q.days - 1
  const to = fromDay(last)
  const base = await baseCurrency(store, companyId)
  const exp = currencyExponent(base)
  const account = q.bank_account_id === undefined ? undefined : await findBankAccount(store, companyId, q.bank_account_id)
  const notes: string[] = []
  const planned: Planned[] = []
  const removed = new Set((q.scenario?.remove ?? []).map((r) => r.toLowerCase()))
  const used = new Set<string>()

  // The balance at the start and what is recorded in the range already, as the cash-flow report counts them.
  const flows = await cashFlowReport(store, companyId, { from, to, interval: 'day', bank_account_id: account?.id }, now)
  const start = minorOfJson(flows.opening_balance, exp)
  for (const p of flows.periods) {
    const change = minorOfJson(p.closing_balance, exp) - minorOfJson(p.opening_balance, exp)
    if (change !== 0n)
      planned.push({
        day: toDay(p.period_start),
        kind: 'recorded',
        name: 'recorded transactions',
        minor: change,
        original: null,
        estimate: false,
        overdue: false,
      })
  }

  // Accepted recurring items (of the account, with one), each payment due in the range.
  const items = (await listRecurring(store, companyId, { status: 'accepted' }, now)).filter(
    (i) => account === undefined || i.bank_account_id === account.id,
  )
  /** What a scenario may remove, for the nearest names to one that is none. */
  const removable = items.map((i) => i.name)
  const kept = items.filter((i) => {
    const out = removed.has(i.id.toLowerCase()) || removed.has(i.name.toLowerCase())
    if (out) used.add(removed.has(i.id.toLowerCase()) ? i.id.toLowerCase() : i.name.toLowerCase())
    return !out
  })
  const add = q.scenario?.add ?? []
  const foreign = new Set([...kept.map((i) => i.currency), ...add.map((a) => a.currency ?? base)].filter((c) => c !== base))
  const rates = await latestRates(store.db, companyId, foreign)
  const usedRates = new Map<string, { rate: string; date: string }>()
  const inBase = (minor: number, currency: string, what: string): { minor: bigint; estimate: boolean } => {
    if (currency === base) return { minor: BigInt(minor), estimate: false }
    const r = rates.get(currency)
    if (!r)
      throw validation(
        what,
        `is in ${currency} and the company has no rate of ${currency} to ${base}: set one with \`finctl rates set --currency ${currency}\``,
      )
    usedRates.set(currency, r)
    return { minor: BigInt(convertMinor(minor, currencyExponent(currency), r.rate, exp)), estimate: true }
  }
  for (const i of kept) {
    const row = { interval: i.interval, anchor_date: i.anchor_date, anchor_day: i.day_of_month, date_tolerance: i.date_tolerance }
    const s = scheduleOf(row)
    const due = nextDue(row, i.last_seen)
    const minor = parseAmount(String(i.amount), currencyExponent(i.currency))
    if (!minor.ok) continue
    const value = inBase(minor.minor, i.currency, 'currency')
    const endsOn = i.ends_on === null ? undefined : toDay(i.ends_on)
    const original = i.currency === base ? null : { minor: minor.minor, currency: i.currency }
    // One payment due before the forecast and not seen: expected on its first day, marked overdue.
    if (due < first && (endsOn === undefined || due <= endsOn))
      planned.push({ day: first, kind: 'recurring', name: i.name, minor: value.minor, original, estimate: value.estimate, overdue: true })
    for (const d of slotsBetween(s, nearestSlot(s, due).k, Math.max(first, due), last, endsOn))
      planned.push({ day: d, kind: 'recurring', name: i.name, minor: value.minor, original, estimate: value.estimate, overdue: false })
  }

  // Scenario items.
  add.forEach((a, n) => {
    const currency = a.currency ?? base
    const amount = parseAmount(a.amount, currencyExponent(currency))
    if (!amount.ok) throw validation(`scenario.add.${n}.amount`, amount.message)
    const value = inBase(amount.minor, currency, `scenario.add.${n}.currency`)
    const original = currency === base ? null : { minor: amount.minor, currency }
    const startDay = toDay(a.start)
    const endDay = a.end === undefined ? undefined : toDay(a.end)
    const interval = a.interval ?? 'once'
    const days =
      interval === 'once'
        ? startDay >= first && startDay <= last
          ? [startDay]
          : []
        : slotsBetween({ interval: interval as Interval, anchor: startDay, day: Number(a.start.slice(8, 10)) }, 0, first, last, endDay)
    for (const d of days)
      planned.push({ day: d, kind: 'scenario', name: a.name, minor: value.minor, original, estimate: value.estimate, overdue: false })
  })

  // Budgets: the unspent part of each month's budget of a category without a recurring item, spread
  // evenly over the month's days from the forecast's start (the remainder a minor unit a day from the first).
  let version: string | null = null
  if (account !== undefined) notes.push('budgets are company-wide: a forecast of one account leaves them out')
  else {
    version = await versionOf(store.db, companyId, q.version)
    const covered = new Set(kept.map((i) => i.category).filter((c) => c !== null))
    const budgets = await budgetsOf(store.db, companyId, version, { from: from.slice(0, 7), to: to.slice(0, 7) })
    for (const b of budgets) removable.push(`budget:${b.category}`)
    const rows = budgets.filter((b) => {
      const out = removed.has(`budget:${b.category.toLowerCase()}`)
      if (out) used.add(`budget:${b.category.toLowerCase()}`)
      return !out && !covered.has(b.category)
    })
    const scope = { column: 'company_key' as const, value: await companyKey(store, companyId) }
    // Each month's spending so far, from the kept month totals in one query.
    const spentIn = await monthlySpending(store.db, scope, from.slice(0, 7), to.slice(0, 7))
    for (const b of rows) {
      const spent = spentIn.get(b.month) ?? new Map<string | null, bigint>()
      const value = inBase(b.amount, b.currency_code, 'version')
      const left = value.minor - (spent.get(b.category) ?? 0n)
      if (left <= 0n) continue
      const a = Math.max(first, toDay(`${b.month}-01`))
      const z = toDay(lastDayOf(b.month))
      const n = BigInt(z - a + 1)
      const each = left / n
      const rest = left - each * n
      for (let d = a; d <= Math.min(z, last); d++) {
        const minor = -(each + (BigInt(d - a) < rest ? 1n : 0n))
        if (minor !== 0n)
          planned.push({
            day: d,
            kind: 'budget',
            name: `budget: ${b.category}`,
            minor,
            original: null,
            estimate: value.estimate,
            overdue: false,
          })
      }
    }
  }
  for (const r of removed)
    if (!used.has(r))
      throw validation(
        'scenario.remove',
        `"${r}" is no accepted recurring item (id or name) nor budget:CATEGORY of a budget in the range${didYouMean(removable, r)}`,
      )

  // The days, in order; the lowest closing balance (the first such day).
  const byDay = new Map<number, Planned[]>()
  for (const p of planned) {
    const list = byDay.get(p.day)
    if (list) list.push(p)
    else byDay.set(p.day, [p])
  }
  const num = (minor: bigint) => Number(formatMinor(minor, exp))
  let balance = start
  let low = { day: first, balance: start + 0n }
  let lowSet = false
  const days: Forecast['days'] = []
  for (let d = first; d <= last; d++) {
    const list = byDay.get(d) ?? []
    let change = 0n
    for (const p of list) change += p.minor
    balance += change
    if (!lowSet || balance < low.balance) {
      low = { day: d, balance }
      lowSet = true
    }
    days.push({
      date: fromDay(d),
      change: num(change),
      balance: num(balance),
      items: !q.items
        ? []
        : list.map((p) => ({
            kind: p.kind,
            name: p.name,
            amount: num(p.minor),
            original: p.original && {
              amount: Number(formatMinor(p.original.minor, currencyExponent(p.original.currency))),
              currency: p.original.currency,
            },
            estimate: p.estimate,
            overdue: p.overdue,
          })),
    })
  }
  if (usedRates.size) notes.push(`amounts in ${[...usedRates.keys()].join(', ')} are estimates at the company's latest rate`)
  return {
    currency: base,
    from,
    to,
    bank_account_id: account?.id ?? null,
    budget_version: version,
    starting_balance: num(start),
    ending_balance: num(balance),
    lowest: { date: fromDay(low.day), balance: num(low.balance) },
    estimate: usedRates.size > 0,
    rates: [...usedRates.entries()].map(([currency, r]) => ({ currency, rate: r.rate, date: r.date })),
    notes,
    days,
  }
}
