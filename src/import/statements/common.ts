/**
 * Helpers shared by the statement parsers: bytes to text, decimal text to minor units, dates,
 * account ids and periods. Pure functions; no IO.
 */
import { currencyExponent, isCurrency } from '../../kernel/currencies.js'
import { parseAmount } from '../../kernel/money.js'
import { daysInMonth } from '../../kernel/vocabulary.js'
import { detectEncoding, isValidUtf8, normalizeEncoding } from '../decode.js'
import { type ImportedTransaction, type ParsedStatement, StatementParseError } from './types.js'

/** Encodings that a file may claim but that never decide anything (ASCII is a subset of both candidates). */
const NON_BINDING = new Set(['us-ascii', 'ascii', 'usascii', 'none', ''])
const SINGLE_BYTE = /^(windows-125\d|iso-8859-\d+)$/

/**
 * Decode a statement file. Order: a byte-order mark, then the encoding the caller gives, then the
 * encoding the file declares (XML declaration, OFX CHARSET/ENCODING), else strict UTF-8, else
 * windows-1252. A declared single-byte charset on bytes that are valid, non-ASCII UTF-8 is taken
 * to be wrong (a common bank mistake), and UTF-8 is used, with a warning.
 */
export function decodeBytes(bytes: Uint8Array, given: string | undefined, declared: string | undefined, warnings: string[]): string {
  const bom = detectEncoding(bytes)
  let encoding: string
  let skip = 0
  if (bom.how === 'bom') {
    encoding = bom.encoding
    skip = bom.bomLength
  } else if (given) {
    encoding = normalizeEncoding(given)
  } else {
    const claim = declared?.trim().toLowerCase()
    let fromFile: string | undefined
    if (claim && !NON_BINDING.has(claim)) {
      try {
        fromFile = normalizeEncoding(claim)
      } catch {
        warnings.push(`the file declares an unknown encoding "${declared}": detected instead`)
      }
    }
    const utf8 = isValidUtf8(bytes)
    if (fromFile && SINGLE_BYTE.test(fromFile) && utf8 && bytes.some((b) => b >= 0x80)) {
      warnings.push(`the file declares ${declared} but its bytes are UTF-8: read as UTF-8`)
      fromFile = 'utf-8'
    }
    encoding = fromFile ?? (utf8 ? 'utf-8' : 'windows-1252')
  }
  const body = bytes.subarray(skip)
  return encoding === 'windows-1252' ? decodeWindows1252(body) : new TextDecoder(encoding).decode(body)
}

/** WHATWG index-windows-1252 for bytes 0x80-0x9F; every other byte is its own code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]

/**
 * Windows-1252 by table: Node 20.18.3+ decodes the `windows-1252` label as ISO-8859-1, so 0x80
 * comes out as U+0080 instead of the euro sign (nodejs/node#60888 and nodejs/node#56542).
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length)
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    units[i] = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : b
  }
  let out = ''
  for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192))
  return out
}

/** The first bytes of a file as Latin-1 text, for format sniffing (markers are all ASCII). */
export function head(bytes: Uint8Array, size = 16_384): string {
  let text = new TextDecoder('latin1').decode(bytes.subarray(0, size))
  if (text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3)
  // UTF-16: drop the NUL bytes so that ASCII markers show.
  if (text.charCodeAt(0) === 0xff || text.charCodeAt(0) === 0xfe) text = text.slice(2).replace(/\0/g, '')
  return text
}

export function hasExtension(fileName: string, exts: readonly string[]): boolean {
  const lower = fileName.toLowerCase()
  return exts.some((e) => lower.endsWith(e))
}

export type Money = { ok: true; minor: number } | { ok: false; message: string }

/**
 * Decimal text (`-1234.5`, `+0,01`, `.46`, `9,`) to minor units of `currency`, with `decimal` as
 * the decimal mark and no thousands separators. Digit arithmetic only, never a float.
 */
export function decimalToMinor(text: string, currency: string, decimal: '.' | ',' = '.'): Money {
  let t = text.trim()
  if (decimal === ',') {
    if (t.includes('.')) return { ok: false, message: `"${text}" is not an amount` }
    t = t.replace(',', '.')
  }
  let sign = ''
  if (t.startsWith('-') || t.startsWith('+')) {
    sign = t[0] === '-' ? '-' : ''
    t = t.slice(1)
  }
  if (t.endsWith('.')) t += '0'
  if (t.startsWith('.')) t = `0${t}`
  if (!/^\d+(\.\d+)?$/.test(t)) return { ok: false, message: `"${text}" is not an amount` }
  if (!isCurrency(currency)) return { ok: false, message: `unknown currency ${currency}` }
  const r = parseAmount(sign + t, currencyExponent(currency))
  return r.ok ? r : { ok: false, message: `"${text}": ${r.message}` }
}

/** A currency code the file gives, or the caller's default; throws when neither is usable. */
export function statementCurrency(fromFile: string | undefined, fallback: string | undefined, where: string): string {
  const code = (fromFile ?? fallback)?.trim().toUpperCase()
  if (!code) throw new StatementParseError(`${where} names no currency: give the bank account's currency`)
  if (!isCurrency(code)) throw new StatementParseError(`${where}: unknown currency "${code}"`)
  return code
}

/** `YYYY-MM-DD` if the parts form a real calendar date, else null. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31) return null
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCMonth() === m - 1 ? date.toISOString().slice(0, 10) : null
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * A date whose day does not exist in its month (30 February, 31 April: banks that count interest in
 * 30-day months write value dates so) read as the month's last day, as other readers of MT940 do;
 * `note` says so. Null when the parts are no date even so (month 13, day 32).
 */
export function lastDayOfMonthRule(y: number, m: number, d: number): { date: string; note?: string } | null {
  const exact = isoDate(y, m, d)
  if (exact) return { date: exact }
  if (!Number.isInteger(d) || d < 1 || d > 31) return null
  const date = isoDate(y, m, daysInMonth(y, m))
  return date ? { date, note: `${MONTHS[m - 1]} has no day ${d} in ${y}: read as ${date}, the month's last day` } : null
}

/** The local date written at the start of `YYYYMMDD...` or `YYYY-MM-DD...` (time and zone ignored). */
export function leadingDate(text: string | undefined): string | null {
  const m = /^\s*(\d{4})-?(\d{2})-?(\d{2})/.exec(text ?? '')
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null
}

/** Account ids compare without spaces, dots or dashes, upper-cased. */
export function normaliseAccount(id: string | undefined): string | undefined {
  const n = id?.replace(/[\s.-]/g, '').toUpperCase()
  return n ? n : undefined
}

/** Widen a statement's period so that it covers every line. */
export function coverPeriod(statement: ParsedStatement): void {
  for (const t of statement.transactions) {
    if (!statement.periodStart || t.date < statement.periodStart) statement.periodStart = t.date
    if (!statement.periodEnd || t.date > statement.periodEnd) statement.periodEnd = t.date
  }
}

/** A transaction line of the statement that could not be read (see ParsedStatement.unreadable). */
export function unreadable(statement: ParsedStatement, line: number | undefined, reason: string): void {
  statement.unreadable ??= []
  statement.unreadable.push(line === undefined ? { reason } : { line, reason })
}

/** Collapse runs of white space and trim; undefined for an empty result. */
export function clean(text: string | undefined): string | undefined {
  const t = text?.replace(/\s+/g, ' ').trim()
  return t ? t : undefined
}

/** Drop undefined optional fields so that results compare and print cleanly. */
export function compact(t: ImportedTransaction): ImportedTransaction {
  for (const k of Object.keys(t) as (keyof ImportedTransaction)[]) if (t[k] === undefined) delete t[k]
  return t
}
