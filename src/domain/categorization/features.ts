/** Features of the category model: a transaction's description, merchant and amount -> the tokens it counts. */

/** What the model sees of a transaction. */
export interface Features {
  description: string
  merchant_name: string | null
  /** Signed integer amount in minor units (negative = money out). */
  amount_minor: number
  /** ISO 4217 exponent of the currency; default 2. */
  currency_exponent?: number
}

/** Description bigrams per row (the first words carry the channel and the merchant). */
export const MAX_BIGRAMS = 4

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/
const MARKS = /\p{M}+/gu
const NON_WORD = /[^\p{L}\p{N}]+/u

/** Lower case, compatibility decomposition, diacritics removed ("Müller" -> "muller", "ﬁ" -> "fi"). */
export function normalize(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase()
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(/ß/g, 'ss')
}

/** Words worth counting: 2+ characters, not a number, not a reference code (3+ digits, or a long code with digits). */
function isWordToken(t: string): boolean {
  let digits = 0
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i)
    if (c >= 48 && c <= 57) digits++
  }
  return isWordShape(t.length, digits)
}

/** isWordToken of a word of `length` characters, `digits` of them ASCII digits. */
export function isWordShape(length: number, digits: number): boolean {
  if (length < 2) return false
  if (digits === 0) return true
  return digits < 3 && digits < length && length < 8
}

function words(text: string): string[] {
  const out: string[] = []
  for (const t of normalize(text).split(NON_WORD)) if (isWordToken(t)) out.push(t)
  return out
}

const MAGNITUDE_LABELS = ['<1', '<10', '<100', '<1k', '<10k', '<100k', '>=100k']

/**
 * Order of magnitude of |amount| in major units, by comparing integers: |minor| < 10^k * 10^exponent.
 * No division, no logarithm (Math.log(1000) / Math.LN10 is 2.9999999999999996), no float on the amount.
 */
export function magnitudeBucket(amountMinor: number, exponent = 2): string {
  return MAGNITUDE_LABELS[magnitudeIndex(amountMinor, exponent)]
}

function magnitudeIndex(amountMinor: number, exponent: number): number {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError('amount_minor must be a safe integer')
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > 6) throw new RangeError('currency_exponent must be an integer 0..6')
  const abs = amountMinor < 0 ? -amountMinor : amountMinor
  let bound = 10 ** exponent // the integer minor amount of 1 major unit
  for (let k = 0; k < MAGNITUDE_LABELS.length - 1; k++, bound *= 10) if (abs < bound) return k
  return MAGNITUDE_LABELS.length - 1
}

const SIGNS = ['in', 'out', 'zero']

/** Every amount token by its code: `s:<sign>` (0-2), `a:<sign>:<magnitude>` (3-23), `a:round` (24). */
export const AMOUNT_TOKENS: readonly string[] = [
  ...SIGNS.map((s) => `s:${s}`),
  ...SIGNS.flatMap((s) => MAGNITUDE_LABELS.map((m) => `a:${s}:${m}`)),
  'a:round',
]

/**
 * The codes (in AMOUNT_TOKENS) of an amount's tokens, written to `out` (3 long at least); returns
 * how many: the token index needs no strings, and a row no array.
 */
export function amountCodes(amountMinor: number, exponent: number, out: Int32Array): number {
  const sign = amountMinor > 0 ? 0 : amountMinor < 0 ? 1 : 2
  out[0] = sign
  out[1] = SIGNS.length + sign * MAGNITUDE_LABELS.length + magnitudeIndex(amountMinor, exponent)
  const hundred = 100 * 10 ** exponent
  if (amountMinor !== 0 && amountMinor % hundred === 0) {
    out[2] = AMOUNT_TOKENS.length - 1
    return 3
  }
  return 2
}

function amountTokens(amountMinor: number, exponent: number): string[] {
  const codes = new Int32Array(3)
  const n = amountCodes(amountMinor, exponent, codes)
  return Array.from(codes.subarray(0, n), (c) => AMOUNT_TOKENS[c])
}

/**
 * The features of a row, as the model counts them: description words and merchant words (prefixed
 * `m:`), lower-cased, NFKD without diacritics; digit runs and reference-like tokens dropped; a few
 * bigrams of adjacent description words (`b:`); the amount's sign (`s:in`/`s:out`), its order of
 * magnitude in major units joined with the sign (`a:out:<100`), and whether it is a round amount
 * (`a:round`), computed on the integer minor amount only, never through a float.
 */
export function tokens(f: Features): string[] {
  const desc = words(f.description)
  const out = desc.slice()
  const bigrams = Math.min(MAX_BIGRAMS, desc.length - 1)
  for (let i = 0; i < bigrams; i++) out.push(`b:${desc[i]}_${desc[i + 1]}`)
  if (f.merchant_name) for (const w of words(f.merchant_name)) out.push(`m:${w}`)
  for (const t of amountTokens(f.amount_minor, f.currency_exponent ?? 2)) out.push(t)
  return out
}

const MAGNITUDE_WORDS: Record<string, string> = {
  '<1': 'amount under 1',
  '<10': 'amount under 10',
  '<100': 'amount under 100',
  '<1k': 'amount under 1,000',
  '<10k': 'amount under 10,000',
  '<100k': 'amount under 100,000',
  '>=100k': 'amount 100,000 or more',
}

/**
 * A feature as a person reads it, for a suggestion's reasons: `s:out` is "sign: money out",
 * `a:out:<100` "amount under 100", `m:uber` `merchant "uber"`, `b:coffee_beans` `words "coffee beans"`.
 */
export function featureWords(token: string): string {
  if (token === 's:in') return 'sign: money in'
  if (token === 's:out') return 'sign: money out'
  if (token === 's:zero') return 'amount zero'
  if (token === 'a:round') return 'a round amount'
  if (token.startsWith('a:')) return MAGNITUDE_WORDS[token.slice(token.lastIndexOf(':') + 1)] ?? token
  if (token.startsWith('m:')) return `merchant "${token.slice(2)}"`
  if (token.startsWith('b:')) return `words "${token.slice(2).replaceAll('_', ' ')}"`
  return `word "${token}"`
}
