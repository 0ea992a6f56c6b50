/**
 * Exact money. Amounts live as integers of the currency's minor unit (cents for USD, yen for JPY,
 * fils for BHD). Decimal text is parsed digit by digit and never passes through a float.
 */
import { currencyExponent } from './currencies.js'

/** 15 digits: the largest magnitude whose decimal form survives a JSON number round trip exactly. */
export const MAX_MINOR = 999_999_999_999_999

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/

export type AmountError = 'not_a_number' | 'too_many_decimals' | 'out_of_range'

export type AmountResult = { ok: true; minor: number } | { ok: false; error: AmountError; message: string }

/** Normalise the text form of an amount: Unicode minus to '-', and a JS number to its shortest decimal. */
function amountText(input: string | number): string {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return 'NaN'
    // String() gives the shortest decimal that round-trips: 149.99 -> "149.99"; tiny or huge -> "1e-7"
    return String(input)
  }
  return input.trim().replace(/^\u2212/, '-')
}

/** Parse a decimal amount into integer minor units of a currency with the given exponent. */
export function parseAmount(input: string | number, exponent: number): AmountResult {
  if (typeof input === 'string') {
    const plain = plainMinor(input, '.', exponent)
    if (plain !== undefined) return { ok: true, minor: plain }
  }
  const text = amountText(input)
  const m = DECIMAL.exec(text)
  if (!m) return { ok: false, error: 'not_a_number', message: `"${text.slice(0, 40)}" is not a decimal amount` }
  const [, sign, whole, fraction = ''] = m
  const frac = fraction.replace(/0+$/, '')
  if (frac.length > exponent) {
    return {
      ok: false,
      error: 'too_many_decimals',
      message:
        exponent === 0 ? 'this currency has no minor unit: give a whole amount' : `at most ${exponent} decimal places for this currency`,
    }
  }
  const digits = (whole.replace(/^0+(?=\d)/, '') + frac.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '')
  if (digits.length > 15) return { ok: false, error: 'out_of_range', message: `"${text.slice(0, 40)}" is too large: at most 15 digits` }
  const minor = Number(digits)
  return { ok: true, minor: sign === '-' && minor !== 0 ? -minor : minor }
}

/**
 * The minor units of the plainest text, as most amounts are written: digits, a minus before them or
 * not, then the decimal mark ('.' or ',') and digits or not; nothing else (no plus, no sign after,
 * no spaces, symbols or separators). Read digit by digit, with no regular expression or string
 * made: a bulk import reads one a row on each side. Undefined for any other text, and for one the
 * general paths (parseAmount, parseLocaleAmount) answer with a message (more decimals than the
 * currency has, more than 15 digits): they read it, and give the same value for every text this
 * one reads (tests pin it).
 */
export function plainMinor(text: string, decimal: '.' | ',', exponent: number): number | undefined {
  const mark = decimal === ',' ? 44 : 46
  const end = text.length
  let i = text.charCodeAt(0) === 45 ? 1 : 0
  let whole = 0
  let wholeDigits = 0
  const digitsFrom = i
  for (; i < end; i++) {
    const c = text.charCodeAt(i) - 48
    if (c < 0 || c > 9) break
    // Leading zeros count for nothing.
    if (wholeDigits > 0 || c > 0) {
      if (++wholeDigits + exponent > 15) return undefined
      whole = whole * 10 + c
    }
  }
  if (i === digitsFrom) return undefined
  let fraction = 0
  let places = 0
  if (i < end) {
    if (text.charCodeAt(i) !== mark || i + 1 === end) return undefined
    // Digits up to the last one that is not a zero; zeros after it count for nothing.
    let last = i
    for (let j = i + 1; j < end; j++) {
      const c = text.charCodeAt(j) - 48
      if (c < 0 || c > 9) return undefined
      if (c > 0) last = j
    }
    places = last - i
    if (places > exponent) return undefined
    for (let j = i + 1; j <= last; j++) fraction = fraction * 10 + (text.charCodeAt(j) - 48)
  }
  const minor = whole * 10 ** exponent + fraction * 10 ** (exponent - places)
  return digitsFrom === 1 && minor !== 0 ? -minor : minor
}

/** Parse an amount in a currency, throwing a plain Error with the reason (callers wrap it). */
export function toMinor(input: string | number, currency: string): number {
  const r = parseAmount(input, currencyExponent(currency))
  if (!r.ok) throw new Error(r.message)
  return r.minor
}

/** Decimal text of a minor-unit amount: formatMinor(-14999, 2) === "-149.99". */
export function formatMinor(minor: number | bigint, exponent: number): string {
  const neg = minor < 0
  // A safe integer's decimal text is exact as it is (a bulk import formats every row: no BigInt a row).
  const abs =
    typeof minor === 'number' && Number.isSafeInteger(minor)
      ? String(neg ? -minor : minor)
      : (neg ? -BigInt(minor) : BigInt(minor)).toString()
  if (exponent === 0) return (neg ? '-' : '') + abs
  const padded = abs.padStart(exponent + 1, '0')
  return `${neg ? '-' : ''}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`
}

/** Powers of ten a double holds exactly (to 10^22). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`))

/** The fraction digits of exponents 1 to 4, each remainder's text padded ("07" for 7 of 100); made on first use. */
const FRACTIONS: string[][] = []
function fractions(exponent: number): string[] {
  let f = FRACTIONS[exponent]
  if (!f) {
    f = Array.from({ length: 10 ** exponent }, (_, i) => String(i).padStart(exponent, '0'))
    FRACTIONS[exponent] = f
  }
  return f
}

/**
 * formatMinor's text of a safe integer of minor units, made with one number's text and one table
 * look-up: integer remainder and division (exact on a safe integer), no float rounding, no padding
 * or slicing a row. `tx list --all --output csv` writes one a row from the stored minor units
 * (docs/performance.md, "`tx list --all` beside the store"); test/kernel/money.test.ts holds it to
 * formatMinor on every currency. Anything else (a BigInt, an exponent past 4) is formatMinor's.
 */
export function minorText(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor) || exponent > 4) return formatMinor(minor, exponent)
  // formatMinor writes -0 as "0": so does String, and the sign below is only for minor < 0.
  if (exponent === 0) return String(minor)
  const neg = minor < 0
  const abs = neg ? -minor : minor
  const unit = POW10[exponent]
  const fraction = abs % unit
  const whole = (abs - fraction) / unit
  return `${neg ? '-' : ''}${whole}.${fractions(exponent)[fraction]}`
}

/**
 * The JSON number for a minor-unit amount: the double nearest its decimal text's value, exact for
 * every amount (at most 15 digits), its shortest decimal form being the amount. A safe integer over
 * an exact power of ten is one correctly rounded division, so the same double as Number() of the
 * text (both are the nearest to one value) without the text (a list of a million rows makes one a
 * row); anything else is read from its text. A sum of more than 15 significant digits is the
 * nearest double.
 */
export function minorToNumber(minor: number | bigint, currency: string): number {
  const exp = currencyExponent(currency)
  if (typeof minor === 'number' && Number.isSafeInteger(minor) && exp < POW10.length) return minor === 0 ? 0 : minor / POW10[exp]
  return Number(formatMinor(minor, exp))
}

// ---- exchange rates -------------------------------------------------------------------------

const RATE_MAX_DIGITS = 18

/** Normalise an exchange rate to its canonical decimal text ("1.10" -> "1.1"); null if invalid. */
export function parseRate(input: string | number): string | null {
  const text = amountText(input)
  const m = DECIMAL.exec(text)
  if (!m || m[1] === '-') return null
  const whole = m[2].replace(/^0+(?=\d)/, '')
  const frac = (m[3] ?? '').replace(/0+$/, '')
  if ((whole + frac).replace(/^0+/, '').length > RATE_MAX_DIGITS) return null
  if (/^0*$/.test(whole + frac)) return null
  return frac ? `${whole}.${frac}` : whole
}

/** Integer division rounding half to even (banker's rounding). */
export function divHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) return divHalfEven(-n, -d)
  const q = n / d // truncates toward zero
  const r = n - q * d
  const twice = 2n * (r < 0n ? -r : r)
  if (twice < d) return q
  const away = r < 0n ? q - 1n : q + 1n
  if (twice > d) return away
  return q % 2n === 0n ? q : away
}

/**
 * Convert an amount in minor units of one currency into minor units of another at a decimal
 * rate, rounding half to even once, per transaction.
 */
export function convertMinor(amountMinor: number, fromExponent: number, rate: string, toExponent: number): number {
  const [whole, frac = ''] = rate.split('.')
  const rateInt = BigInt(whole + frac)
  let num = BigInt(amountMinor) * rateInt
  let den = 10n ** BigInt(frac.length)
  if (toExponent >= fromExponent) num *= 10n ** BigInt(toExponent - fromExponent)
  else den *= 10n ** BigInt(fromExponent - toExponent)
  const out = divHalfEven(num, den)
  if (out > BigInt(MAX_MINOR) || out < -BigInt(MAX_MINOR)) throw new RangeError('converted amount is out of range')
  return Number(out)
}

/** The digits of a positive decimal rate as an integer and its scale: "1.0823" -> [10823n, 4]. */
function rateParts(rate: string): [bigint, number] {
  const [whole, frac = ''] = rate.split('.')
  return [BigInt(whole + frac), frac.length]
}

/**
 * a / b of two positive decimal rates (canonical, as parseRate gives them), to `significant` digits,
 * rounded half to even: a cross rate ("USD per EUR" / "JPY per EUR" = USD per JPY). Exact integer
 * arithmetic; never a float. The answer is canonical decimal text.
 */
export function divideRates(a: string, b: string, significant = 12): string {
  const [an, as] = rateParts(a)
  const [bn, bs] = rateParts(b)
  if (an <= 0n || bn <= 0n) throw new RangeError('rates must be positive')
  // a / b = (an * 10^bs) / (bn * 10^as); scaled by 10^k and rounded to an integer of `significant` digits.
  const num = an * 10n ** BigInt(bs)
  const den = bn * 10n ** BigInt(as)
  let k = significant - (num.toString().length - den.toString().length)
  for (;;) {
    const q = k >= 0 ? divHalfEven(num * 10n ** BigInt(k), den) : divHalfEven(num, den * 10n ** BigInt(-k))
    if (q.toString().length > significant) {
      k--
      continue
    }
    const text = k >= 0 ? formatMinor(q, k) : (q * 10n ** BigInt(-k)).toString()
    const canonical = parseRate(text)
    if (!canonical) throw new RangeError(`the rate ${a} / ${b} is out of range`)
    return canonical
  }
}
