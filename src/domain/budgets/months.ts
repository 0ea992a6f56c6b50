/** Months written YYYY-MM, as one number (year * 12 + month - 1) for arithmetic without Date. */
import { daysInMonth } from '../../kernel/vocabulary.js'

/** The periods of the budget report (`reports budget --interval`). */
export const BUDGET_INTERVALS = ['month', 'quarter', 'year'] as const

export const monthNumber = (month: string): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1
export const monthText = (n: number): string => `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`

/** Every month from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = []
  for (let m = monthNumber(from); m <= monthNumber(to); m++) out.push(monthText(m))
  return out
}

export function lastDayOf(month: string): string {
  const days = daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)))
  return `${month}-${String(days).padStart(2, '0')}`
}

export const addMonths = (month: string, n: number): string => monthText(monthNumber(month) + n)
