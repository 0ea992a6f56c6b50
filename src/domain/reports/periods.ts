/**
 * Calendar arithmetic of the reports, on "YYYY-MM-DD" dates in UTC: the default range, report
 * periods (day, ISO week Monday..Sunday, month, quarter) clipped to the range, and their labels.
 */
import { validation } from '../../kernel/errors.js'

export const INTERVALS = ['day', 'week', 'month', 'quarter'] as const
export type Interval = (typeof INTERVALS)[number]

/** At most this many periods in one cash-flow report (1,000 days is about 2.7 years by day). */
export const MAX_PERIODS = 1000

const DAY_MS = 86_400_000

export function toDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS
}

export function fromDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

function ymd(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))]
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0')
}

/** First day of month `m` (1..12, may overflow either way) of year `y`. */
function monthStart(y: number, m: number): string {
  // setUTCFullYear, not Date.UTC: the latter reads years 0..99 as 1900..1999.
  const d = new Date(0)
  d.setUTCFullYear(y, m - 1, 1)
  return d.toISOString().slice(0, 10)
}

function lastOfMonth(y: number, m: number): string {
  return fromDay(toDay(monthStart(y, m + 1)) - 1)
}

/**
 * The last 12 calendar months up to `now`, the current month to date included: 1st of the month 11
 * months ago .. today (UTC). The current month's transactions are what a user has just entered or
 * imported; a report that left them out looked empty right after `finctl init --demo`.
 */
export function defaultRange(now: Date): { from: string; to: string } {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() + 1
  return { from: monthStart(y, m - 11), to: now.toISOString().slice(0, 10) }
}

/**
 * The range of a report: both given, or the defaults. Only `from`: up to today. Only `to`: the 12
 * calendar months ending with `to`'s month. `from` after `to` is a 400 naming `from`.
 */
export function resolveRange(q: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  let { from, to } = q
  if (!from && !to) return defaultRange(now)
  if (!to) to = now.toISOString().slice(0, 10)
  if (!from) {
    const [y, m] = ymd(to)
    from = y > 1 ? monthStart(y, m - 11) : '0001-01-01'
  }
  if (from > to) throw validation('from', `must be on or before \`to\` (${to})`)
  return { from, to }
}

/** Monday of the ISO week of a day number (1970-01-01 was a Thursday). */
function mondayOf(day: number): number {
  const dow = (((day + 3) % 7) + 7) % 7 // 0 = Monday
  return day - dow
}

/** ISO week label "2020-W53": the week belongs to the year of its Thursday. */
export function isoWeekLabel(date: string): string {
  const thursday = mondayOf(toDay(date)) + 3
  const year = new Date(thursday * DAY_MS).getUTCFullYear()
  const jan1 = new Date(0)
  jan1.setUTCFullYear(year, 0, 1)
  const week = Math.floor((thursday - jan1.getTime() / DAY_MS) / 7) + 1
  return `${pad(year, 4)}-W${pad(week)}`
}

/** The natural period (not clipped) holding a date. */
function naturalPeriod(date: string, interval: Interval): { start: string; end: string; label: string } {
  const [y, m] = ymd(date)
  switch (interval) {
    case 'day':
      return { start: date, end: date, label: date }
    case 'week': {
      const monday = mondayOf(toDay(date))
      return { start: fromDay(monday), end: fromDay(monday + 6), label: isoWeekLabel(date) }
    }
    case 'month':
      return { start: monthStart(y, m), end: lastOfMonth(y, m), label: `${pad(y, 4)}-${pad(m)}` }
    case 'quarter': {
      const q = Math.floor((m - 1) / 3)
      return { start: monthStart(y, q * 3 + 1), end: lastOfMonth(y, q * 3 + 3), label: `${pad(y, 4)}-Q${q + 1}` }
    }
  }
}

/** How many periods a range spans, computed without listing them. */
export function periodCount(from: string, to: string, interval: Interval): number {
  const [y1, m1] = ymd(from)
  const [y2, m2] = ymd(to)
  switch (interval) {
    case 'day':
      return toDay(to) - toDay(from) + 1
    case 'week':
      return (mondayOf(toDay(to)) - mondayOf(toDay(from))) / 7 + 1
    case 'month':
      return y2 * 12 + m2 - (y1 * 12 + m1) + 1
    case 'quarter':
      return y2 * 4 + Math.floor((m2 - 1) / 3) - (y1 * 4 + Math.floor((m1 - 1) / 3)) + 1
  }
}

export interface Period {
  /** First day of the period inside the range (the range's `from` for a clipped first period). */
  start: string
  /** Last day inside the range. */
  end: string
  label: string
}

/** Every period of the range, in order, the first and last clipped to it; 400 beyond MAX_PERIODS. */
export function periodsOf(from: string, to: string, interval: Interval): Period[] {
  const n = periodCount(from, to, interval)
  if (n > MAX_PERIODS) {
    throw validation(
      'interval',
      `${from}..${to} by ${interval} gives ${n} periods; at most ${MAX_PERIODS}: choose a longer interval or a shorter range`,
    )
  }
  const out: Period[] = []
  let cursor = from
  // n periods exactly (no date comparison past 9999-12-31, where ISO text stops sorting)
  for (let i = 0; i < n; i++) {
    const p = naturalPeriod(cursor, interval)
    const end = i === n - 1 ? to : p.end
    out.push({ start: cursor, end, label: p.label })
    cursor = fromDay(toDay(end) + 1)
  }
  return out
}

/** Index of the period holding `date` (periods sorted, contiguous, and `date` inside the range). */
export function periodIndex(periods: Period[], date: string): number {
  let lo = 0
  let hi = periods.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (periods[mid].start <= date) lo = mid
    else hi = mid - 1
  }
  return lo
}
