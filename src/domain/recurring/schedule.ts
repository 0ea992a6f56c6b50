/**
 * The dates of a recurring item (docs/forecast.md): every week or two weeks from an anchor day; a
 * day of every month, quarter or year (the 29th to 31st fall on a shorter month's last day); the
 * last working day (Monday to Friday) of every month. Dates are day numbers (days since 1970-01-01,
 * UTC) so that a million comparisons need no Date.
 */
import { daysInMonth } from '../../kernel/vocabulary.js'

export const INTERVALS = ['weekly', 'biweekly', 'monthly', 'last_working_day', 'quarterly', 'yearly'] as const
export type Interval = (typeof INTERVALS)[number]

const DAY_MS = 86_400_000
export const toDay = (date: string): number =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS
export const fromDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** Month index (year * 12 + month - 1) of a day number. */
export function monthIndexOf(day: number): number {
  const d = new Date(day * DAY_MS)
  return d.getUTCFullYear() * 12 + d.getUTCMonth()
}

export function dayOfMonth(day: number): number {
  return new Date(day * DAY_MS).getUTCDate()
}

function dayIn(monthIndex: number, dom: number): number {
  const y = Math.floor(monthIndex / 12)
  const m = (monthIndex % 12) + 1
  return Date.UTC(y, m - 1, Math.min(dom, daysInMonth(y, m))) / DAY_MS
}

/** The last Monday-to-Friday of a month. */
function lastWorkingDay(monthIndex: number): number {
  const last = dayIn(monthIndex, 31)
  const dow = (((last + 3) % 7) + 7) % 7 // 0 = Monday
  return dow <= 4 ? last : last - (dow - 4)
}

/** Whether a day is the last day of its month. */
export function isMonthEnd(day: number): boolean {
  return dayOfMonth(day + 1) === 1
}

export interface Schedule {
  interval: Interval
  /** A day of the series (week-based), or a day in its first month (month-based). */
  anchor: number
  /** The day of the month of monthly, quarterly and yearly items. */
  day: number | null
}

/** Days between two slots, roughly: for windows and the "stopped" test. */
export function periodDays(interval: Interval): number {
  switch (interval) {
    case 'weekly':
      return 7
    case 'biweekly':
      return 14
    case 'monthly':
    case 'last_working_day':
      return 30
    case 'quarterly':
      return 91
    case 'yearly':
      return 365
  }
}

const monthStep = (interval: Interval): number => (interval === 'quarterly' ? 3 : interval === 'yearly' ? 12 : 1)

/** The day of slot k (k = 0 is the anchor's). */
export function slotDay(s: Schedule, k: number): number {
  switch (s.interval) {
    case 'weekly':
      return s.anchor + 7 * k
    case 'biweekly':
      return s.anchor + 14 * k
    case 'last_working_day':
      return lastWorkingDay(monthIndexOf(s.anchor) + k)
    default:
      return dayIn(monthIndexOf(s.anchor) + monthStep(s.interval) * k, s.day ?? dayOfMonth(s.anchor))
  }
}

/** The slot nearest a day, and how far the day is from it (day - slot). */
export function nearestSlot(s: Schedule, day: number): { k: number; off: number } {
  let k0: number
  if (s.interval === 'weekly' || s.interval === 'biweekly') {
    const p = s.interval === 'weekly' ? 7 : 14
    k0 = Math.round((day - s.anchor) / p)
  } else k0 = Math.floor((monthIndexOf(day) - monthIndexOf(s.anchor)) / monthStep(s.interval))
  let best = { k: k0, off: day - slotDay(s, k0) }
  for (const k of [k0 - 1, k0 + 1]) {
    const off = day - slotDay(s, k)
    if (Math.abs(off) < Math.abs(best.off)) best = { k, off }
  }
  return best
}

/** The first slot after a day (strictly). */
export function slotAfter(s: Schedule, day: number): { k: number; day: number } {
  let { k } = nearestSlot(s, day)
  while (slotDay(s, k) <= day) k++
  while (slotDay(s, k - 1) > day) k--
  return { k, day: slotDay(s, k) }
}
