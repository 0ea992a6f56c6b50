/**
 * Dates in bank files. A format is a pattern of YYYY/YY, MM/M, DD/D with any separators
 * (`DD.MM.YYYY`, `MM/DD/YY`, `YYYY-MM-DD`, `YY/MM/DD`). Detection runs over every row: the format
 * that reads the most rows wins when it reads all but a tolerated few; formats that tie and disagree
 * (every day <= 12, or `13/08/12`, which is DD/MM/YY and YY/MM/DD) are refused, never guessed.
 */
import { daysInMonth } from '../kernel/vocabulary.js'

export interface DateFormat {
  name: string
  /** `yymd`: a two-digit year first (YY/MM/DD); `ymd` takes a four-digit one. */
  order: 'ymd' | 'dmy' | 'mdy' | 'yymd'
}

const FORMATS: DateFormat[] = [
  { name: 'YYYY-MM-DD', order: 'ymd' },
  { name: 'DD.MM.YYYY', order: 'dmy' },
  { name: 'MM/DD/YYYY', order: 'mdy' },
  { name: 'YY/MM/DD', order: 'yymd' },
]

/** The leading date of a field: three digit groups with separators; a time after it is cut off. */
const DATE_PART = /^\s*(\d{1,4})[./\-: ](\d{1,2})[./\-: ](\d{1,4})(?:[T\s].*)?\s*$/
const COMPACT = /^\s*(\d{4})(\d{2})(\d{2})(?:[T\s].*)?\s*$/

function pivotYear(yy: number): number {
  // Two-digit years: 00-69 -> 2000s, 70-99 -> 1900s (the POSIX convention).
  return yy < 70 ? 2000 + yy : 1900 + yy
}

/** Whether a year, month and day are a date finctl takes (1900 to 2200). */
const isDate = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && y >= 1900 && y <= 2200 && d <= daysInMonth(y, m)

function iso(y: number, m: number, d: number): string | null {
  if (!isDate(y, m, d)) return null
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`
}

/** A date separator's character code: . / - : or a space. */
const isSeparator = (c: number) => c === 46 || c === 47 || c === 45 || c === 58 || c === 32

/** plainDateGroups' answer: each group's value, then each one's length (one array for every call). */
const GROUPS = new Int32Array(6)

/**
 * Reads the plainest date text into GROUPS, as most files write every date: 1-4 digits, a
 * separator, 1-2 digits, a separator, 1-4 digits, and nothing else (no spaces around, no time).
 * False for any other text, which the regular expressions read (the same way): a bulk import reads
 * one a row, and this makes no array or string.
 */
function plainDateGroups(text: string): boolean {
  const end = text.length
  let i = 0
  for (let g = 0; g < 3; g++) {
    if (g > 0 && !(i < end && isSeparator(text.charCodeAt(i++)))) return false
    let value = 0
    let length = 0
    for (; i < end; i++) {
      const c = text.charCodeAt(i) - 48
      if (c < 0 || c > 9) break
      value = value * 10 + c
      length++
    }
    if (length === 0 || length > (g === 1 ? 2 : 4)) return false
    GROUPS[g] = value
    GROUPS[g + 3] = length
  }
  return i === end
}

/** Parse a date text in one order; null when it does not fit. */
export function parseDate(text: string, order: DateFormat['order']): string | null {
  if (plainDateGroups(text)) return plainDate(text, order)
  const compact = COMPACT.exec(text)
  if (compact) return order === 'ymd' ? iso(Number(compact[1]), Number(compact[2]), Number(compact[3])) : null
  const m = DATE_PART.exec(text)
  if (!m) return null
  const [a, b, c] = [m[1], m[2], m[3]]
  const year = (s: string) => (s.length <= 2 ? pivotYear(Number(s)) : s.length === 4 ? Number(s) : NaN)
  if (order === 'ymd') return a.length === 4 ? iso(Number(a), Number(b), Number(c)) : null
  if (order === 'yymd') return a.length === 2 && c.length <= 2 ? iso(pivotYear(Number(a)), Number(b), Number(c)) : null
  if (a.length > 2 || c.length === 3) return null
  if (order === 'dmy') return iso(year(c), Number(b), Number(a))
  return iso(year(c), Number(a), Number(b))
}

/** parseDate of a plain text (plainDateGroups read it): the same answers, and an ISO date text itself when it is one. */
function plainDate(text: string, order: DateFormat['order']): string | null {
  const a = GROUPS[0]
  const b = GROUPS[1]
  const c = GROUPS[2]
  if (order === 'ymd') {
    if (GROUPS[3] !== 4) return null
    // YYYY-MM-DD as written: the text is the answer.
    if (text.length === 10 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) return isDate(a, b, c) ? text : null
    return iso(a, b, c)
  }
  const cl = GROUPS[5]
  if (order === 'yymd') return GROUPS[3] === 2 && cl <= 2 ? iso(pivotYear(a), b, c) : null
  if (GROUPS[3] > 2 || cl === 3) return null
  const year = cl <= 2 ? pivotYear(c) : cl === 4 ? c : Number.NaN
  if (order === 'dmy') return iso(year, b, a)
  return iso(year, a, b)
}

/** A user's --date-format: DD.MM.YYYY, MM/DD/YY, YYYY-MM-DD, D/M/YYYY, YYYYMMDD ... */
export function formatFromFlag(flag: string): DateFormat {
  const f = flag.trim().toUpperCase()
  let parts = f.split(/[^A-Z]+/).filter(Boolean)
  // Without separators (YYYYMMDD): runs of one letter.
  if (parts.length === 1) parts = parts[0].match(/(.)\1*/g) ?? []
  const letters = parts.map((p) => p[0]).join('')
  const named = ({ YMD: 'ymd', DMY: 'dmy', MDY: 'mdy' } as const)[letters as 'YMD']
  if (!named || parts.length !== 3)
    throw new Error(`--date-format "${flag}" is not a date format: write it like DD.MM.YYYY, MM/DD/YY or YYYY-MM-DD`)
  // YY/MM/DD: a two-digit year first, which `ymd` (YYYY first) does not read.
  const order = named === 'ymd' && parts[0].length === 2 ? 'yymd' : named
  return { name: f, order }
}

export type DateDetection =
  | { ok: true; format: DateFormat /** Dated rows the format does not read: rejected by the import. */; misfits: number }
  | { ok: false; reason: 'ambiguous'; candidates: DateFormat[]; message: string }
  | { ok: false; reason: 'unknown'; message: string; sample?: string }

type Order = DateFormat['order']
const ORDERS: readonly Order[] = FORMATS.map((f) => f.order)

const WRITTEN = /^\s*(\d{1,4})([./\-: ])(\d{1,2})([./\-: ])(\d{1,4})/

/** A format named as a file writes its dates ("24/03/2022": DD/MM/YYYY, "20240324": YYYYMMDD); its usual name when the text does not show it. */
export function writtenFormat(format: DateFormat, text: string | undefined): DateFormat {
  if (text === undefined) return format
  if (COMPACT.test(text)) return format.order === 'ymd' ? { name: 'YYYYMMDD', order: 'ymd' } : format
  const m = WRITTEN.exec(text)
  if (!m) return format
  const [, first, , , , last] = m
  const year = (digits: string) => (digits.length <= 2 ? 'YY' : 'YYYY')
  const [a, b, c] = {
    ymd: [year(first), 'MM', 'DD'],
    yymd: ['YY', 'MM', 'DD'],
    dmy: ['DD', 'MM', year(last)],
    mdy: ['MM', 'DD', year(last)],
  }[format.order]
  return { name: `${a}${m[2]}${b}${m[4]}${c}`, order: format.order }
}

/** Dated rows a format may fail to read and still be the file's: one in ten (at least one row). */
export function toleratedMisfits(rows: number): number {
  return Math.max(1, Math.floor(rows / 10))
}

/**
 * Counts, for each format, the dates it cannot read; feed it every row's date text, then decide.
 * The format that reads the most rows wins, when it reads all but a tolerated few (those rows are
 * rejected, each with its line, instead of the whole file being refused). Formats that tie and read
 * some row as different dates (every day <= 12) are ambiguous: never guessed.
 */
export class DateDetector {
  private readonly misfits: Record<Order, number> = { ymd: 0, dmy: 0, mdy: 0, yymd: 0 }
  private readonly firstMisfit: Partial<Record<Order, string>> = {}
  /** The first date each format reads, to name the format as the file writes it. */
  private readonly firstFit: Partial<Record<Order, string>> = {}
  /** Pairs of formats (`dmy mdy`) that read some row as different dates. */
  private readonly disagree = new Set<string>()
  private seen = 0

  add(text: string): void {
    if (text.trim() === '') return
    this.seen++
    const readings = ORDERS.map((order) => parseDate(text, order))
    readings.forEach((iso, i) => {
      if (iso !== null) {
        this.firstFit[ORDERS[i]] ??= text
        return
      }
      this.misfits[ORDERS[i]]++
      this.firstMisfit[ORDERS[i]] ??= text
    })
    for (let i = 0; i < ORDERS.length; i++) {
      for (let j = i + 1; j < ORDERS.length; j++) {
        if (readings[i] !== null && readings[j] !== null && readings[i] !== readings[j]) this.disagree.add(`${ORDERS[i]} ${ORDERS[j]}`)
      }
    }
  }

  /** The formats that read the most rows, in FORMATS order, each named as the file writes it. */
  private leaders(): DateFormat[] {
    const fewest = Math.min(...ORDERS.map((o) => this.misfits[o]))
    return FORMATS.filter((f) => this.misfits[f.order] === fewest).map((f) => writtenFormat(f, this.firstFit[f.order]))
  }

  /**
   * Whether more rows could still change the decision: not once one format reads more rows than
   * any other, all but a tolerated few (a later row it does not read is rejected by the import).
   */
  get settled(): boolean {
    const leaders = this.leaders()
    return (
      this.seen > 0 &&
      leaders.length === 1 &&
      this.misfits[leaders[0].order] <= toleratedMisfits(this.seen) &&
      this.misfits[leaders[0].order] < this.seen
    )
  }

  decide(): DateDetection {
    if (this.seen === 0) return { ok: false, reason: 'unknown', message: 'no dates found in the date column' }
    const left = this.leaders()
    const misfits = this.misfits[left[0].order]
    const sample = this.firstMisfit[left[0].order]
    if (misfits === this.seen)
      return {
        ok: false,
        reason: 'unknown',
        message: `the dates fit no known format (for example "${sample}"): give --date-format`,
        sample,
      }
    if (misfits > toleratedMisfits(this.seen)) {
      const names = left.map((f) => f.name).join(' or ')
      return {
        ok: false,
        reason: 'unknown',
        message: `${misfits} of ${this.seen} dates do not fit ${names}, the format most of them fit (for example "${sample}"), more than the one in ten tolerated: give --date-format`,
        sample,
      }
    }
    const ambiguous = left.some((a, i) => left.slice(i + 1).some((b) => this.disagree.has(`${a.order} ${b.order}`)))
    // Several formats left but every row reads as the same date under each (10.10.2017): no ambiguity.
    if (!ambiguous) return { ok: true, format: left[0], misfits }
    const names = left.map((f) => f.name).join(' or ')
    // Day first or month first: no day over 12 decides. A year first (13/08/12): no group says which is the year.
    const why = left.some((f) => f.order === 'yymd') ? 'every date reads both ways, as different dates' : 'no day in the file is over 12'
    return {
      ok: false,
      reason: 'ambiguous',
      candidates: left,
      message: `the dates could be ${names} (${why}): give --date-format ${left.map((f) => f.name).join(' or --date-format ')}`,
    }
  }
}
