/**
 * Periods as people say them (`2026-10`, `2026-Q3`, `30d`, `last-month`, `ytd`, ...) turned into a
 * first and last day, "YYYY-MM-DD" in UTC as the reports count days. Pure: the clock is passed in.
 */
import { isIsoDate } from './vocabulary.js'

export interface DayRange {
  /** First day, inclusive. */
  from: string
  /** Last day, inclusive. */
  to: string
}

/** The forms, as the usage error and the help list them. */
export const PERIOD_FORMS: ReadonlyArray<[form: string, meaning: string]> = [
  ['2026-10-05', 'that day'],
  ['2026-10', 'that month'],
  ['2026-Q3', 'that quarter'],
  ['2026', 'that year'],
  ['30d, 6w, 3m, 1y', 'the last 30 days, 6 weeks, 3 months, 1 year, today included'],
  ['today, yesterday', 'that day'],
  ['this-week, last-week', 'Monday to Sunday'],
  ['this-month, last-month', 'the calendar month'],
  ['this-quarter, last-quarter', 'the calendar quarter'],
  ['this-year, last-year', 'the calendar year'],
  ['mtd, qtd, ytd', 'the month, quarter or year to date (today included)'],
]

const DAY_MS = 86_400_000

/** A date of year `y`, month `m` (1-based, may overflow either way) and day `d` (may overflow), as text. */
function dateOf(y: number, m: number, d: number): string {
  // setUTCFullYear, not Date.UTC: the latter reads years 0..99 as 1900..1999.
  const t = new Date(0)
  t.setUTCFullYear(y, m - 1, d)
  return t.toISOString().slice(0, 10)
}

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)
}

function month(y: number, m: number): DayRange {
  return { from: dateOf(y, m, 1), to: dateOf(y, m + 1, 0) }
}

function quarter(y: number, q: number): DayRange {
  return { from: dateOf(y, q * 3 - 2, 1), to: dateOf(y, q * 3 + 1, 0) }
}

function year(y: number): DayRange {
  return { from: dateOf(y, 1, 1), to: dateOf(y, 12, 31) }
}

/** `n` months before `date`, the day kept or, past the end of the shorter month, its last day. */
function monthsBefore(date: string, n: number): string {
  const y = Number(date.slice(0, 4))
  const m = Number(date.slice(5, 7))
  const d = Number(date.slice(8, 10))
  const last = Number(dateOf(y, m - n + 1, 0).slice(8, 10))
  return dateOf(y, m - n, Math.min(d, last))
}

/**
 * The days `text` names, or undefined when it is no period of PERIOD_FORMS. `relative` is false for
 * a whole date only: every other form is worth echoing back (`period: 2026-10-01 .. 2026-10-31`).
 */
export function parsePeriod(text: string, now: Date): { range: DayRange; relative: boolean } | undefined {
  const t = text.trim().toLowerCase()
  const today = now.toISOString().slice(0, 10)
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() + 1
  const q = Math.ceil(m / 3)
  const rel = (range: DayRange) => ({ range, relative: true })
  if (isIsoDate(t)) return { range: { from: t, to: t }, relative: false }
  let g = /^(\d{4})-(\d{2})$/.exec(t)
  if (g) return Number(g[2]) >= 1 && Number(g[2]) <= 12 && Number(g[1]) >= 1 ? rel(month(Number(g[1]), Number(g[2]))) : undefined
  g = /^(\d{4})-q([1-4])$/.exec(t)
  if (g) return Number(g[1]) >= 1 ? rel(quarter(Number(g[1]), Number(g[2]))) : undefined
  g = /^(\d{4})$/.exec(t)
  if (g) return Number(g[1]) >= 1 ? rel(year(Number(g[1]))) : undefined
  g = /^(\d{1,5})([dwmy])$/.exec(t)
  if (g) {
    const n = Number(g[1])
    if (n < 1) return undefined
    // The last n units, today included: the day after the same day n units ago.
    const start =
      g[2] === 'd'
        ? addDays(today, 1 - n)
        : g[2] === 'w'
          ? addDays(today, 1 - 7 * n)
          : addDays(monthsBefore(today, g[2] === 'm' ? n : 12 * n), 1)
    return rel({ from: start, to: today })
  }
  // Monday of this ISO week (0 = Monday).
  const monday = addDays(today, -((now.getUTCDay() + 6) % 7))
  switch (t) {
    case 'today':
      return rel({ from: today, to: today })
    case 'yesterday': {
      const d = addDays(today, -1)
      return rel({ from: d, to: d })
    }
    case 'this-week':
      return rel({ from: monday, to: addDays(monday, 6) })
    case 'last-week':
      return rel({ from: addDays(monday, -7), to: addDays(monday, -1) })
    case 'this-month':
      return rel(month(y, m))
    case 'last-month':
      return rel(month(m === 1 ? y - 1 : y, m === 1 ? 12 : m - 1))
    case 'this-quarter':
      return rel(quarter(y, q))
    case 'last-quarter':
      return rel(quarter(q === 1 ? y - 1 : y, q === 1 ? 4 : q - 1))
    case 'this-year':
      return rel(year(y))
    case 'last-year':
      return rel(year(y - 1))
    case 'mtd':
      return rel({ from: month(y, m).from, to: today })
    case 'qtd':
      return rel({ from: quarter(y, q).from, to: today })
    case 'ytd':
      return rel({ from: year(y).from, to: today })
  }
  return undefined
}

export function periodFormsText(): string {
  return PERIOD_FORMS.map(([form, meaning]) => `  ${form.padEnd(28)} ${meaning}`).join('\n')
}
