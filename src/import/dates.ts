/**
 * Dates in bank files. The usual formats are three numbers in an order (`DD.MM.YYYY`, `MM/DD/YY`,
 * `YYYY-MM-DD`, `YY/MM/DD`), read with any separator; any other layout (`DD/YYYY/MM`, `%d-%b-%Y`,
 * month names) is read by its parts (date-layouts.ts). Detection runs over every row: the format
 * that reads the most rows wins when it reads all but a tolerated few; formats that tie and disagree
 * (every day <= 12, or `13/08/12`, which is DD/MM/YY and YY/MM/DD) are refused, never guessed.
 */
import { daysInMonth } from '../kernel/vocabulary.js'
import { type Layout, layoutOf, NAMED_LAYOUTS, pivotYear, READ, readLayout, writtenName } from './date-layouts.js'

/** Three numbers in an order; `yymd`: a two-digit year first (YY/MM/DD), `ymd` takes a four-digit one. */
export type Order = 'ymd' | 'dmy' | 'mdy' | 'yymd'

export interface DateFormat {
  name: string
  /** `layout`: read by `layout`'s parts; the usual orders by the fast readers below. */
  order: Order | 'layout'
  layout?: Layout
}

/** The formats detection chooses from: the usual orders, then the layouts with a month's name. */
const FORMATS: DateFormat[] = [
  { name: 'YYYY-MM-DD', order: 'ymd' },
  { name: 'DD.MM.YYYY', order: 'dmy' },
  { name: 'MM/DD/YYYY', order: 'mdy' },
  { name: 'YY/MM/DD', order: 'yymd' },
  ...NAMED_LAYOUTS.map((layout, i): DateFormat => ({ name: ['DD-MMM-YYYY', 'MMM DD, YYYY', 'YYYY-MMM-DD'][i], order: 'layout', layout })),
]

/** The leading date of a field: three digit groups with separators; a time after it is cut off. */
const DATE_PART = /^\s*(\d{1,4})[./\-: ](\d{1,2})[./\-: ](\d{1,4})(?:[T\s].*)?\s*$/
/** YYYYMMDD, or an OFX timestamp after it (`20091224120000[0:GMT]`, `20260302120000.000[-5:EST]`). */
const COMPACT = /^\s*(\d{4})(\d{2})(\d{2})(?:\d{4}(?:\d{2}(?:\.\d+)?)?)?(?:\[[^\]]*\])?(?:[T\s].*)?\s*$/

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

/** Parse a date text in a format (or one of the usual orders); null when it does not fit. */
export function parseDate(text: string, format: DateFormat | Order): string | null {
  if (typeof format === 'string') return parseOrder(text, format)
  return format.layout ? layoutDate(text, format.layout) : parseOrder(text, format.order as Order)
}

function layoutDate(text: string, layout: Layout): string | null {
  return readLayout(text, layout) ? iso(READ[0], READ[1], READ[2]) : null
}

/** A date in one of the usual orders: the plainest text without an array or a string made, the rest by regular expressions. */
function parseOrder(text: string, order: Order): string | null {
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
function plainDate(text: string, order: Order): string | null {
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

/** A layout the user gave that reads no date: `reason` says why, with an example of one that does. */
export class DateFormatError extends Error {
  constructor(
    readonly format: string,
    readonly reason: string,
  ) {
    super(`--date-format "${format}": ${reason}`)
  }
}

const SEPARATOR = /^[./\-: ]$/

/** The usual order a layout is, when it is one: three numbers with one separator between each, or YYYYMMDD. */
function usualOrder(layout: Layout): Order | undefined {
  const p = layout.parts
  const numbers = p.filter((x) => x.kind !== 'text')
  if (numbers.some((x) => x.kind === 'name')) return undefined
  const letters = numbers.map((x) => x.kind[0]).join('')
  if (letters === 'ymd' && p.length === 3 && numbers[0].kind === 'year' && numbers[0].digits === 4 && !layout.time) return 'ymd'
  if (p.length !== 5 || [1, 3].some((k) => p[k].kind !== 'text' || !SEPARATOR.test((p[k] as { text: string }).text))) return undefined
  if (letters === 'ymd') return numbers[0].kind === 'year' && numbers[0].digits === 2 ? 'yymd' : 'ymd'
  return letters === 'dmy' ? 'dmy' : letters === 'mdy' ? 'mdy' : undefined
}

/**
 * A user's --date-format (an upload's date_format, a saved mapping's, a seed step's): a layout of
 * letters (DD.MM.YYYY, MM/DD/YY, DD/YYYY/MM, D-MMM-YYYY, YYYYMMDD) or strftime (%d/%Y/%m, %d-%b-%Y).
 * The usual orders are read as detection reads them (any separator, a two-digit year too).
 */
export function formatFromFlag(flag: string): DateFormat {
  const text = flag.trim()
  const r = layoutOf(text)
  if (!r.ok) {
    const example = text.includes('%') ? '%d/%m/%Y reads 24/03/2022' : 'DD/MM/YYYY reads 24/03/2022'
    throw new DateFormatError(flag, `${r.reason}; for example ${example}`)
  }
  const name = r.strftime ? text : text.toUpperCase()
  const order = usualOrder(r.layout)
  return order ? { name, order } : { name, order: 'layout', layout: { ...r.layout, anyWord: true } }
}

/** Why a layout reads no date, with an example of one that does (`"DD/MM": a date needs ...`); undefined when it reads one. */
export function dateFormatProblem(text: string): string | undefined {
  try {
    formatFromFlag(text)
    return undefined
  } catch (e) {
    if (e instanceof DateFormatError) return `"${text}": ${e.reason}`
    throw e
  }
}

/** The shape of a date of the usual orders (digit groups, or eight digits), its values unchecked. */
const NUMERIC_LIKE = /^\s*(\d{1,4}[./\-: ]\d{1,2}[./\-: ]\d{1,4}|\d{8}(?:\d{4}(?:\d{2}(?:\.\d+)?)?)?(?:\[[^\]]*\])?)(\D|$)/
const LETTER = /\p{L}/u

/** Whether a layout with a month's name reads the text by its shape, with a word that names a month. */
function namedShape(text: string): boolean {
  return LETTER.test(text) && NAMED_LAYOUTS.some((l) => readLayout(text, l) && READ[1] !== 0)
}

/**
 * Whether a date cell looks like a date, its values unchecked (the row is then a transaction, and
 * rejected when its date does not read; else it is skipped as no transaction): the usual orders'
 * digit groups, a month's name between numbers (05-Jan-2024, Jan 5 2024), and the shape of
 * `format`'s own layout when the user gave it (24/2022/03 for DD/YYYY/MM). The plan and the map
 * stage ask the same, so a row the plan counts is one the import reads.
 */
export function looksLikeDate(text: string, format?: DateFormat): boolean {
  if (NUMERIC_LIKE.test(text)) return true
  const layout = format?.layout
  if (layout?.anyWord && readLayout(text, layout)) return true
  return namedShape(text)
}

/** Whether a text is a date in a format detection knows (YY/MM/DD aside, which a reference often fits). */
export function readsAsDate(text: string): boolean {
  if (parseDate(text, 'ymd') !== null || parseDate(text, 'dmy') !== null || parseDate(text, 'mdy') !== null) return true
  return LETTER.test(text) && FORMATS.some((f) => f.layout && parseDate(text, f) !== null)
}

export type DateDetection =
  | { ok: true; format: DateFormat /** Dated rows the format does not read: rejected by the import. */; misfits: number }
  | { ok: false; reason: 'ambiguous'; candidates: DateFormat[]; message: string }
  | { ok: false; reason: 'unknown'; message: string; sample?: string }

const WRITTEN = /^\s*(\d{1,4})([./\-: ])(\d{1,2})([./\-: ])(\d{1,4})/

/** A format named as a file writes its dates ("24/03/2022": DD/MM/YYYY, "20240324": YYYYMMDD, "5 janv. 2024": D MMM YYYY); its usual name when the text does not show it. */
export function writtenFormat(format: DateFormat, text: string | undefined): DateFormat {
  if (text === undefined) return format
  if (format.layout) {
    const spans: string[] = []
    return readLayout(text, format.layout, spans) ? { ...format, name: writtenName(format.layout, spans) } : format
  }
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
    layout: [],
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
 * some row as different dates (every day <= 12) are ambiguous: never guessed. A layout with a
 * month's name reads only a text with a letter, and no other format does: it disagrees with none.
 */
export class DateDetector {
  private readonly misfits = FORMATS.map(() => 0)
  private readonly firstMisfit: Array<string | undefined> = []
  /** The first date each format reads, to name the format as the file writes it. */
  private readonly firstFit: Array<string | undefined> = []
  /** Pairs of formats (`1 2`, by their place in FORMATS) that read some row as different dates. */
  private readonly disagree = new Set<string>()
  private seen = 0

  add(text: string): void {
    if (text.trim() === '') return
    this.seen++
    const lettered = LETTER.test(text)
    const readings = FORMATS.map((f) => (f.layout && !lettered ? null : parseDate(text, f)))
    readings.forEach((iso, i) => {
      if (iso !== null) {
        this.firstFit[i] ??= text
        return
      }
      this.misfits[i]++
      this.firstMisfit[i] ??= text
    })
    for (let i = 0; i < FORMATS.length; i++) {
      for (let j = i + 1; j < FORMATS.length; j++) {
        if (readings[i] !== null && readings[j] !== null && readings[i] !== readings[j]) this.disagree.add(`${i} ${j}`)
      }
    }
  }

  /** The places in FORMATS of the formats that read the most rows. */
  private leaders(): number[] {
    const fewest = Math.min(...this.misfits)
    return FORMATS.flatMap((_, i) => (this.misfits[i] === fewest ? [i] : []))
  }

  /** A format named as the file writes it. */
  private named(i: number): DateFormat {
    return writtenFormat(FORMATS[i], this.firstFit[i])
  }

  /**
   * Whether more rows could still change the decision: not once one format reads more rows than
   * any other, all but a tolerated few (a later row it does not read is rejected by the import).
   */
  get settled(): boolean {
    const leaders = this.leaders()
    const misfits = this.misfits[leaders[0]]
    return this.seen > 0 && leaders.length === 1 && misfits <= toleratedMisfits(this.seen) && misfits < this.seen
  }

  decide(): DateDetection {
    if (this.seen === 0) return { ok: false, reason: 'unknown', message: 'no dates found in the date column' }
    const places = this.leaders()
    const left = places.map((i) => this.named(i))
    const misfits = this.misfits[places[0]]
    const sample = this.firstMisfit[places[0]]
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
    const ambiguous = places.some((a, i) => places.slice(i + 1).some((b) => this.disagree.has(`${a} ${b}`)))
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
