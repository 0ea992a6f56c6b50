/**
 * Dates in bank files. A format is a pattern of YYYY/YY, MM/M, DD/D with any separators
 * (`DD.MM.YYYY`, `MM/DD/YY`, `YYYY-MM-DD`). Detection runs over every row: a format that fails on
 * one row is out; if formats that disagree remain (every day <= 12), it refuses to guess.
 */
import { daysInMonth } from '../domain/vocabulary.js'

export interface DateFormat {
  name: string
  order: 'ymd' | 'dmy' | 'mdy'
}

const FORMATS: DateFormat[] = [
  { name: 'YYYY-MM-DD', order: 'ymd' },
  { name: 'DD.MM.YYYY', order: 'dmy' },
  { name: 'MM/DD/YYYY', order: 'mdy' },
]

/** The leading date of a field: three digit groups with separators; a time after it is cut off. */
const DATE_PART = /^\s*(\d{1,4})[./\-: ](\d{1,2})[./\-: ](\d{1,4})(?:[T\s].*)?\s*$/
const COMPACT = /^\s*(\d{4})(\d{2})(\d{2})(?:[T\s].*)?\s*$/

function pivotYear(yy: number): number {
  // Two-digit years: 00-69 -> 2000s, 70-99 -> 1900s (the POSIX convention).
  return yy < 70 ? 2000 + yy : 1900 + yy
}

function iso(y: number, m: number, d: number): string | null {
  if (!(m >= 1 && m <= 12 && d >= 1 && y >= 1900 && y <= 2200) || d > daysInMonth(y, m)) return null
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`
}

/** Parse a date text in one order; null when it does not fit. */
export function parseDate(text: string, order: DateFormat['order']): string | null {
  const compact = COMPACT.exec(text)
  if (compact) return order === 'ymd' ? iso(Number(compact[1]), Number(compact[2]), Number(compact[3])) : null
  const m = DATE_PART.exec(text)
  if (!m) return null
  const [a, b, c] = [m[1], m[2], m[3]]
  const year = (s: string) => (s.length <= 2 ? pivotYear(Number(s)) : s.length === 4 ? Number(s) : NaN)
  if (order === 'ymd') return a.length === 4 ? iso(Number(a), Number(b), Number(c)) : null
  if (a.length > 2 || c.length === 3) return null
  if (order === 'dmy') return iso(year(c), Number(b), Number(a))
  return iso(year(c), Number(a), Number(b))
}

/** A user's --date-format: DD.MM.YYYY, MM/DD/YY, YYYY-MM-DD, D/M/YYYY ... */
export function formatFromFlag(flag: string): DateFormat {
  const f = flag.trim().toUpperCase()
  const parts = f.split(/[^A-Z]+/).filter(Boolean)
  const letters = parts.map((p) => p[0]).join('')
  const order = ({ YMD: 'ymd', DMY: 'dmy', MDY: 'mdy' } as const)[letters as 'YMD']
  if (!order || parts.length !== 3) throw new Error(`--date-format "${flag}" is not a date format: write it like DD.MM.YYYY, MM/DD/YY or YYYY-MM-DD`)
  return { name: f, order }
}

export type DateDetection =
  | { ok: true; format: DateFormat }
  | { ok: false; reason: 'ambiguous'; candidates: DateFormat[]; message: string }
  | { ok: false; reason: 'unknown'; message: string; sample?: string }

/** Keeps the formats every date seen so far fits. Feed it every row's date text, then decide. */
export class DateDetector {
  private candidates = new Set<DateFormat['order']>(['ymd', 'dmy', 'mdy'])
  private firstFailure?: string
  private seen = 0
  /** Whether some row reads as different dates under the formats still possible. */
  private disagree = false

  add(text: string): void {
    if (text.trim() === '') return
    this.seen++
    // One format left (every file once a row has told them apart): nothing to compare readings of.
    if (this.candidates.size === 1) {
      const [order] = this.candidates
      if (parseDate(text, order) === null) {
        this.candidates.delete(order)
        this.firstFailure ??= text
      }
      return
    }
    const readings = new Set<string>()
    for (const order of [...this.candidates]) {
      const iso = parseDate(text, order)
      if (iso === null) {
        this.candidates.delete(order)
        if (this.candidates.size === 0) this.firstFailure ??= text
      } else readings.add(iso)
    }
    if (readings.size > 1) this.disagree = true
  }

  /** Whether more rows could still change the decision: not once at most one format fits every row seen. */
  get settled(): boolean {
    return this.seen > 0 && this.candidates.size <= 1
  }

  decide(): DateDetection {
    const left = FORMATS.filter((f) => this.candidates.has(f.order))
    if (this.seen === 0) return { ok: false, reason: 'unknown', message: 'no dates found in the date column' }
    if (left.length === 0) return { ok: false, reason: 'unknown', message: `the dates fit no known format (for example "${this.firstFailure}"): give --date-format`, sample: this.firstFailure }
    // Several formats left but every row reads as the same date under each (10.10.2017): no ambiguity.
    if (left.length === 1 || !this.disagree) return { ok: true, format: left[0] }
    const names = left.map((f) => f.name).join(' or ')
    return {
      ok: false,
      reason: 'ambiguous',
      candidates: left,
      message: `the dates could be ${names} (no day in the file is over 12): give --date-format ${left.map((f) => f.name).join(' or --date-format ')}`,
    }
  }
}
