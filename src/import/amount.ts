/**
 * Amounts as banks write them, parsed to integer minor units from the text (never a float):
 * decimal point or comma, thousands separators (`,` `.` space, apostrophe), currency symbols and
 * codes, negatives as `-x`, `(x)`, `x-` and Unicode minus, and `.46` without a leading zero.
 */
import { isCurrency } from '../kernel/currencies.js'
import { parseAmount, plainMinor } from '../kernel/money.js'

export type DecimalMark = '.' | ','

export type LocaleAmount = { ok: true; minor: number } | { ok: false; message: string }

const STRIP = /[\s\u00a0\u202f$€£¥₣₤₹₽₩₪₫฿₴₦₱₲₵₡₭₮₸₺₼₾]|[A-Z]{3}(?=\s|$|\d)|(?<=\d|\s)[A-Z]{3}$/g
/** Spaces and currency symbols go, and three capitals only when they are a currency code ("EUR 12,50", "12.50 USD"): "REF12" is no amount. */
const strip = (m: string) => (m.length === 3 && !isCurrency(m) ? m : '')

/** An amount's text without its sign marks (`-x`, `x-`, `(x)`, `+x`, Unicode minus), currency and spaces; a message when it has two minus signs. */
function splitSign(text: string): { negative: boolean; rest: string } | string {
  let t = text.trim().replace(/\u2212/g, '-')
  let negative = false
  if (/^\(.*\)$/.test(t)) {
    negative = true
    t = t.slice(1, -1).trim()
  }
  t = t.replace(STRIP, strip)
  if (t.endsWith('-')) {
    negative = !negative
    t = t.slice(0, -1)
  } else if (t.startsWith('-')) {
    negative = !negative
    t = t.slice(1)
  } else if (t.startsWith('+')) t = t.slice(1)
  if (t.startsWith('-')) return `"${text}" has two minus signs`
  return { negative, rest: t }
}

/** The sign an amount's text carries: -1 a minus, 1 none (or a plus), 0 for a zero or no amount at all. */
export function amountSign(text: string): -1 | 0 | 1 {
  const s = splitSign(text)
  if (typeof s === 'string' || !/[1-9]/.test(s.rest)) return 0
  return s.negative ? -1 : 1
}

/** Parse `text` with the given decimal mark into minor units of a currency with `exponent` decimals. */
export function parseLocaleAmount(text: string, decimal: DecimalMark, exponent: number): LocaleAmount {
  const plain = plainMinor(text, decimal, exponent)
  if (plain !== undefined) return { ok: true, minor: plain }
  if (text.trim() === '') return { ok: false, message: 'is empty' }
  const signed = splitSign(text)
  if (typeof signed === 'string') return { ok: false, message: signed }
  const { negative } = signed
  let t = signed.rest
  const thousands = decimal === ',' ? /[.'’ ]/g : /[,'’ ]/g
  t = t.replace(thousands, '')
  if (decimal === ',') t = t.replace(',', '.')
  if (t.startsWith('.')) t = `0${t}`
  if (!/^\d+(\.\d+)?$/.test(t)) return { ok: false, message: `"${text}" is not an amount` }
  const r = parseAmount(t, exponent)
  if (!r.ok) return { ok: false, message: r.message }
  return { ok: true, minor: negative && r.minor !== 0 ? -r.minor : r.minor }
}

/** An amount as a transaction line writes it: with decimals (`.23`, `$.23`, `CNY -123.18`), or a sign (so that a count or a reference is none). */
const AMOUNT_LIKE =
  /^(?:[(+\-\u2212]\s*)?(?:[A-Z]{3}\s*)?(?:[$€£¥₹₽]\s*)?(?:[+\-\u2212]\s*)?(?:\d[\d.,'’\s\u00a0]*)?[.,]\d{1,2}\)?-?(?:\s*[A-Z]{3})?$|^[+\-\u2212]\s*\d[\d.,'’]*$/

/** Whether a cell's text looks like an amount of a transaction line (a date is none: check that first). */
export const looksLikeAmount = (text: string): boolean => AMOUNT_LIKE.test(text.trim())

/**
 * Guess the decimal mark from amount samples: a comma followed by one or two digits at the end
 * ("12,50", "1.234,5") means a decimal comma; a point there, or thousands commas ("1,234.56",
 * "1,234"), mean a decimal point. Undecided samples (like "100") default to the point.
 */
export function detectDecimalMark(samples: Iterable<string>): DecimalMark {
  let comma = 0
  let point = 0
  for (const raw of samples) {
    const s = raw.replace(/[^\d.,]/g, '')
    if (/,\d{1,2}$/.test(s) || /\.\d{3},/.test(s)) comma++
    else if (/\.\d{1,2}$/.test(s) || /,\d{3}(\.|$)/.test(s) || /^\.\d+$/.test(s)) point++
  }
  return comma > point ? ',' : '.'
}
