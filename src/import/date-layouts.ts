/**
 * Date layouts in any arrangement: a day, a month (its number, or its name in a mapped language:
 * month-names.ts) and a year of 2 or 4 digits, in any order with any separators, written as letters
 * (`DD/YYYY/MM`, `D-MMM-YYYY`, `YYYYMMDD`) or as a strftime pattern, as hledger's CSV rules take them
 * (`%d/%Y/%m`, `%d-%b-%Y`, `%Y%m%d`). A separator reads any run of spaces and punctuation ("05 Jan
 * 2024" fits `DD-MMM-YYYY`), and a time after the date is read past, as for the usual layouts.
 */
import { isFullName, monthOf } from './month-names.js'

export type Part =
  /** `exact`: beside another number with no separator (`YYYYMMDD`), so of exactly 2 digits; else 1 or 2. */
  | { kind: 'day' | 'month'; exact: boolean }
  /** `exact`: of exactly `digits` digits; else of 2 or 4. */
  | { kind: 'year'; digits: 2 | 4; exact: boolean }
  /** A month's name; `full`: a layout writes it whole (MMMM, %B), not abbreviated (MMM, %b). */
  | { kind: 'name'; full: boolean }
  /** Spaces and punctuation read any run of them (at least one between two numbers); `literal`: with a letter, read as written. */
  | { kind: 'text'; text: string; required: boolean; literal?: boolean }

export interface Layout {
  parts: readonly Part[]
  /** A time after the date in the pattern (%H:%M): whatever follows the date is read past. */
  time?: boolean
  /**
   * A name part takes any word for a date's look (dates.ts, looksLikeDate): a layout given by the
   * user, whose row with an unknown month is rejected, not skipped as no transaction.
   */
  anyWord?: boolean
}

export type LayoutText = { ok: true; layout: Layout; strftime: boolean } | { ok: false; reason: string }

/** A part as written, before it is known whether a number stands beside it. */
type Token = { part: Part; written: string; padded?: boolean } | { time: string }

const LETTERS: Record<string, Part> = {
  D: { kind: 'day', exact: false },
  DD: { kind: 'day', exact: false },
  M: { kind: 'month', exact: false },
  MM: { kind: 'month', exact: false },
  MMM: { kind: 'name', full: false },
  MMMM: { kind: 'name', full: true },
  YY: { kind: 'year', digits: 2, exact: false },
  YYYY: { kind: 'year', digits: 4, exact: false },
}

const CODES: Record<string, Part> = {
  d: LETTERS.DD,
  e: LETTERS.D,
  m: LETTERS.MM,
  b: LETTERS.MMM,
  h: LETTERS.MMM,
  B: LETTERS.MMMM,
  y: LETTERS.YY,
  Y: LETTERS.YYYY,
}
/** strftime's codes of a time of day and a zone: after the date, read past. */
const TIME_CODES = new Set('HIMSpPTRklzZfLsN')
/** strftime's codes that stand for several: %F is %Y-%m-%d, %D is %m/%d/%y. */
const SHORTHANDS: Record<string, string> = { F: '%Y-%m-%d', D: '%m/%d/%y' }

const isWordChar = (c: string) => /[\p{L}\p{N}]/u.test(c)
const isNumber = (p: Part | undefined) => p !== undefined && (p.kind === 'day' || p.kind === 'month' || p.kind === 'year')

function letterTokens(text: string): Token[] | string {
  const tokens: Token[] = []
  for (let i = 0; i < text.length; ) {
    const c = text[i].toUpperCase()
    let j = i + 1
    if (isWordChar(c)) {
      while (j < text.length && text[j].toUpperCase() === c) j++
      const run = text.slice(i, j).toUpperCase()
      const part = LETTERS[run]
      if (!part)
        return `"${run}" is no part of a date (D or DD a day, M or MM a month, MMM or MMMM its name, YY or YYYY a year; a time after the date needs no letters)`
      tokens.push({ part, written: run, padded: run.length > 1 })
    } else {
      while (j < text.length && !isWordChar(text[j])) j++
      tokens.push({ part: { kind: 'text', text: text.slice(i, j), required: false }, written: text.slice(i, j) })
    }
    i = j
  }
  return tokens
}

function strftimeTokens(pattern: string): Token[] | string {
  const text = pattern.replace(/%([FD])/g, (_, c: string) => SHORTHANDS[c])
  const tokens: Token[] = []
  let literal = ''
  const flush = () => {
    if (literal) tokens.push({ part: { kind: 'text', text: literal, required: false }, written: literal })
    literal = ''
  }
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '%') {
      literal += text[i]
      continue
    }
    const flag = /[-_0^#]/.test(text[i + 1] ?? '') ? text[++i] : ''
    const code = text[++i] ?? ''
    const written = `%${flag}${code}`
    if (code === '%') literal += '%'
    else if (TIME_CODES.has(code)) {
      flush()
      tokens.push({ time: written })
    } else if (CODES[code]) {
      flush()
      // %d and %m are two digits; %e, %-d and %-m one or two.
      tokens.push({ part: CODES[code], written, padded: code !== 'e' && flag !== '-' && flag !== '_' })
    } else
      return `${written} is no date code (%d or %e a day, %m a month, %b or %B its name, %y or %Y a year; a time %H:%M:%S after the date)`
  }
  flush()
  return tokens
}

const WHAT = { day: 'the day', month: 'the month', name: 'the month', year: 'the year' } as const

/** A layout from its text (`DD/YYYY/MM`, `%d-%b-%Y`), or why it is none (no year, a part twice, an unknown letter or code). */
export function layoutOf(text: string): LayoutText {
  const strftime = text.includes('%')
  const tokens = strftime ? strftimeTokens(text.trim()) : letterTokens(text.trim())
  if (typeof tokens === 'string') return { ok: false, reason: tokens }
  const timeAt = tokens.findIndex((t) => 'time' in t)
  if (timeAt >= 0 && tokens.slice(timeAt).some((t) => 'part' in t && t.part.kind !== 'text'))
    return { ok: false, reason: `the time (${(tokens[timeAt] as { time: string }).time}) goes after the day, the month and the year` }
  const dateTokens = (timeAt < 0 ? tokens : tokens.slice(0, timeAt)).filter((t): t is Exclude<Token, { time: string }> => 'part' in t)
  const seen = new Map<string, string>()
  for (const t of dateTokens) {
    if (t.part.kind === 'text') continue
    const what = WHAT[t.part.kind]
    const before = seen.get(what)
    if (before !== undefined) return { ok: false, reason: `${what} is written twice (${before} and ${t.written})` }
    seen.set(what, t.written)
  }
  if (seen.size < 3) return { ok: false, reason: 'a date needs a day, a month and a year' }
  // A separator before the time is the time's: a time is read past after a space or a T.
  while (timeAt >= 0 && dateTokens.length && dateTokens[dateTokens.length - 1].part.kind === 'text') dateTokens.pop()
  const parts: Part[] = []
  for (let k = 0; k < dateTokens.length; k++) {
    const { part, written, padded } = dateTokens[k]
    const prev = dateTokens[k - 1]?.part
    const next = dateTokens[k + 1]?.part
    if (part.kind === 'text') {
      parts.push({ ...part, required: isNumber(prev) && isNumber(next), ...(isWordChar(part.text) ? { literal: true } : {}) })
      continue
    }
    const exact = isNumber(part) && (isNumber(prev) || isNumber(next))
    if (exact && !padded) {
      const two = strftime ? `%${written.at(-1) === 'e' ? 'd' : written.at(-1)}` : written + written
      return { ok: false, reason: `${written} is 1 or 2 digits, so the number beside it needs a separator (or write ${two})` }
    }
    parts.push(isNumber(part) ? ({ ...part, exact } as Part) : part)
  }
  return { ok: true, layout: { parts, ...(timeAt >= 0 ? { time: true } : {}) }, strftime }
}

/** The year, month and day the last `readLayout` read (the month 0 for a word that names none). */
export const READ = new Int32Array(3)

const WORD = /\p{L}+/uy

export function pivotYear(yy: number): number {
  // Two-digit years: 00-69 -> 2000s, 70-99 -> 1900s (the POSIX convention).
  return yy < 70 ? 2000 + yy : 1900 + yy
}

const isDigit = (c: number) => c >= 48 && c <= 57
/** Spaces and punctuation: what a separator reads (ASCII tested by code, the rest by class). */
function isSeparatorAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  if (c < 128) return !(isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))
  return !isWordChar(text[i])
}

/**
 * Reads a date text by a layout into READ: true when the text has the layout's shape (its values
 * unchecked: 31 February, an unknown month's name are for the caller). `spans`: each part's text.
 */
export function readLayout(text: string, layout: Layout, spans?: string[]): boolean {
  const { parts } = layout
  const end = text.length
  let i = 0
  while (i < end && text.charCodeAt(i) <= 32) i++
  for (const p of parts) {
    const start = i
    if (p.kind === 'text') {
      if (p.literal) {
        if (text.slice(i, i + p.text.length).toLowerCase() !== p.text.toLowerCase()) return false
        i += p.text.length
      } else {
        while (i < end && isSeparatorAt(text, i)) i++
        if (p.required && i === start) return false
      }
    } else if (p.kind === 'name') {
      WORD.lastIndex = i
      const word = WORD.exec(text)?.[0]
      if (!word) return false
      i += word.length
      READ[1] = monthOf(word)
    } else {
      const most = p.kind === 'year' ? 4 : 2
      const width = p.kind === 'year' ? p.digits : 2
      let value = 0
      for (; i < end && i - start < (p.exact ? width : most) && isDigit(text.charCodeAt(i)); i++)
        value = value * 10 + text.charCodeAt(i) - 48
      const n = i - start
      if (p.exact ? n !== width : n === 0 || (i < end && isDigit(text.charCodeAt(i))) || (p.kind === 'year' && n !== 2 && n !== 4))
        return false
      if (p.kind === 'year') READ[0] = n <= 2 ? pivotYear(value) : value
      else READ[p.kind === 'month' ? 1 : 2] = value
    }
    spans?.push(text.slice(start, i))
  }
  // After the date: its end, a dot closing an abbreviated name or a year ("24 lug 2024. 02:59:45"), a time after a space or a T.
  const last = parts[parts.length - 1]?.kind
  if (i < end && text.charCodeAt(i) === 46 && (last === 'name' || (last === 'year' && (i + 1 === end || text.charCodeAt(i + 1) <= 32)))) i++
  if (i === end || layout.time) return true
  const c = text.charCodeAt(i)
  return c <= 32 || c === 84
}

const sep = (required: boolean): Part => ({ kind: 'text', text: ' ', required })
const day: Part = { kind: 'day', exact: false }
const name: Part = { kind: 'name', full: false }
const year: Part = { kind: 'year', digits: 4, exact: false }

/** The layouts with a month's name that detection knows: "05-Jan-2024", "5 janv. 2024"; "Jan 5, 2024"; "2024-Jan-05". */
export const NAMED_LAYOUTS: readonly Layout[] = [
  { parts: [day, sep(false), name, sep(false), year] },
  { parts: [name, sep(false), day, sep(true), year] },
  { parts: [{ kind: 'year', digits: 4, exact: true }, sep(false), name, sep(false), day] },
]

/** A layout named as a text writes it ("5 janv. 2024": D MMM YYYY), by the spans `readLayout` read it in. */
export function writtenName(layout: Layout, spans: readonly string[]): string {
  return layout.parts
    .map((p, k) => {
      const s = spans[k] ?? ''
      if (p.kind === 'day') return s.length === 1 ? 'D' : 'DD'
      if (p.kind === 'month') return s.length === 1 ? 'M' : 'MM'
      if (p.kind === 'year') return s.length === 2 ? 'YY' : 'YYYY'
      if (p.kind === 'name') return isFullName(s) ? 'MMMM' : 'MMM'
      // The dot of an abbreviation ("janv. ") is the name's, not the separator's, when more follows.
      return layout.parts[k - 1]?.kind === 'name' && !isFullName(spans[k - 1]) && s.length > 1 ? s.replace(/^\./, '') : s
    })
    .join('')
}
