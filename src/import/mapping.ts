/**
 * Maps a file's header onto create-transaction fields. Header names are recognised in English,
 * German, French, Spanish, Dutch, Norwegian, Danish, Swedish, Finnish, Polish, Czech, Russian,
 * Ukrainian, Portuguese and Italian (and a few others banks use: header-names.ts); `--map
 * field=Column` overrides, and several columns may make up the description (`--map
 * description=Payee --map description=Memo`).
 */
import { HEADER_NAMES } from './header-names.js'
import { didYouMean } from '../kernel/near-names.js'

export type Role =
  | 'date'
  | 'posted_date'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'indicator'
  | 'description'
  | 'merchant_name'
  | 'currency_code'
  | 'reference'
  | 'category'
  /** The file's own account (a row's account when a file holds several): never the counterparty's. */
  | 'account'
  /** A fee charged beside the amount (Revolut's Fee): the row moves the balance by the amount less it. Never by its header alone. */
  | 'fee'
  /** A running balance: the amounts are checked against it (balance-chain.ts), never read from it. */
  | 'balance'

export const ROLES: Role[] = [
  'date',
  'posted_date',
  'amount',
  'debit',
  'credit',
  'indicator',
  'description',
  'merchant_name',
  'currency_code',
  'reference',
  'category',
  'account',
  'fee',
  'balance',
]

/** Other names people give a field in `--map field=Column` (and an upload's `map`). */
const ROLE_ALIASES: Record<string, Role> = {
  transaction_date: 'date',
  withdrawal: 'debit',
  deposit: 'credit',
  currency: 'currency_code',
  merchant: 'merchant_name',
  payee: 'merchant_name',
  bank_id: 'reference',
}

/** The role a `--map` field names (its own name or an alias), or undefined for an unknown one. */
export function roleNamed(field: string): Role | undefined {
  const role = ROLE_ALIASES[field] ?? field
  return (ROLES as string[]).includes(role) ? (role as Role) : undefined
}

/** `name=value` split at the first `=` (the name trimmed), or undefined when there is no name. */
export function splitPair(item: string): [string, string] | undefined {
  const at = item.indexOf('=')
  return at > 0 ? [item.slice(0, at).trim(), item.slice(at + 1)] : undefined
}

/** Letters that no accent stripping reaches (ø, æ, ł) and the German ones spelled out as today. */
const SPELLED: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
}
const SPELL = /[äöüßøæœłđðþı]/g
/** Printable ASCII: nothing to fold, the path of most headers. */
const ASCII = /^[ -~]*$/
const MARKS = /\p{Mn}/gu

/**
 * Lower case, accents off, umlauts spelled out, punctuation to single spaces; letters of any
 * script kept ("Сумма операции"), so every language's names can match. Called per header cell.
 */
export function normalizeHeader(h: string): string {
  const s = h.toLowerCase()
  if (ASCII.test(s)) return s.replace(/[^a-z0-9]+/g, ' ').trim()
  return s
    .normalize('NFC')
    .replace(SPELL, (c) => SPELLED[c])
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** Header names per role, normalised, most specific first (header-names.ts). */
const SYNONYMS = Object.fromEntries(
  ROLES.map((role) => [
    role,
    [
      ...new Set(
        HEADER_NAMES[role]
          .split('\n')
          .flatMap((line) => line.slice(line.indexOf(':') + 1).split('|'))
          .map(normalizeHeader)
          .filter(Boolean),
      ),
    ],
  ]),
) as Record<Role, string[]>

/** Chinese, Japanese and Korean names: a word of two characters is a whole name ("余额"), never a Latin one's start. */
const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u

/** Every role's names, to tell a known header at once. */
const KNOWN = new Set(ROLES.flatMap((r) => SYNONYMS[r]))

export interface ColumnMap {
  date?: number
  posted_date?: number
  amount?: number
  debit?: number
  credit?: number
  indicator?: number
  description: number[]
  merchant_name?: number
  currency_code?: number
  reference?: number
  category?: number
  account?: number
  fee?: number
  balance?: number
}

/** How many header fields are recognised (to find the header row among preamble lines). */
export function recognised(header: string[]): number {
  let n = 0
  for (const h of header) {
    const k = normalizeHeader(h)
    if (KNOWN.has(k)) n++
  }
  return n
}

/**
 * Map a header automatically, then apply `--map role=Column` overrides (by header name, or by
 * 1-based column number).
 */
export function mapHeader(header: string[], overrides: Array<[Role, string]> = [], o: { headerless?: boolean } = {}): ColumnMap {
  const norm = header.map(normalizeHeader)
  const exact = new Set(norm.filter((h) => ROLES.some((r) => SYNONYMS[r].includes(h))))
  const map: ColumnMap = { description: [] }
  const taken = new Set<number>()
  const find = (role: Role) => {
    for (const syn of SYNONYMS[role]) {
      const i = norm.findIndex((h, idx) => h === syn && !taken.has(idx))
      if (i >= 0) return i
    }
    // then a header that starts with a synonym ("Betrag (EUR)", "Amount USD", "余额 元"), and is no other role's own name ("Soll/Haben")
    for (const syn of SYNONYMS[role]) {
      if (syn.length < 4 && !CJK.test(syn)) continue
      const i = norm.findIndex((h, idx) => h.startsWith(`${syn} `) && !taken.has(idx) && !exact.has(h))
      if (i >= 0) return i
    }
    return -1
  }
  const overridden = new Set(overrides.map(([r]) => r))
  for (const role of [
    'date',
    'posted_date',
    'amount',
    'debit',
    'credit',
    'indicator',
    'currency_code',
    'reference',
    'category',
    'account',
    'balance',
    'merchant_name',
  ] as const) {
    if (overridden.has(role)) continue
    const i = find(role)
    if (i >= 0) {
      map[role] = i
      taken.add(i)
    }
  }
  if (!overridden.has('description')) {
    const i = find('description')
    if (i >= 0) map.description.push(i)
  }
  for (const [role, column] of overrides) {
    // A column number: 1-based from the left, or negative from the right end of each row (ragged files).
    if (/^-\d+$/.test(column)) {
      if (role === 'description') map.description.push(Number(column))
      else map[role] = Number(column)
      continue
    }
    const byNumber = /^\d+$/.test(column)
    const idx = byNumber ? Number(column) - 1 : o.headerless ? -1 : header.findIndex((h) => h.trim() === column.trim())
    const byNorm = idx >= 0 || byNumber || o.headerless ? idx : norm.indexOf(normalizeHeader(column))
    // A number past the header is still a column of a ragged file's longer rows; a header-less file's first row is its width.
    if (byNorm < 0 || (byNorm >= header.length && !byNumber))
      throw new Error(`--map ${role}=${column}: ${noColumn(header, column, o.headerless === true)}`)
    if (role === 'description') map.description.push(byNorm)
    else map[role] = byNorm
  }
  // No description column: the merchant stands in for it.
  if (map.description.length === 0 && map.merchant_name !== undefined) map.description.push(map.merchant_name)
  return map
}

/** Why a column named in a flag is not found: the header's names, or that the file has none. */
export function noColumn(header: string[], column: string, headerless: boolean): string {
  return headerless
    ? `no column "${column}": the file has no header row, so its columns are named by their number from 1 (1 to ${header.length})`
    : `no column "${column}" in the header${didYouMean(header, column)} (${header.map((h) => `"${h}"`).join(', ')})`
}

export function missingColumns(map: ColumnMap): string[] {
  const missing: string[] = []
  if (map.date === undefined) missing.push('date (--map date=Column)')
  if (map.amount === undefined && map.debit === undefined && map.credit === undefined)
    missing.push('amount (--map amount=Column, or --map debit=Column --map credit=Column)')
  return missing
}

/** Whether a header names a description column, itself or one of a numbered set ("Description 2"). */
export function isDescriptionHeader(header: string): boolean {
  const k = normalizeHeader(header)
  return SYNONYMS.description.includes(k) || SYNONYMS.description.includes(k.replace(/ ?\d+$/, ''))
}

/** A header without its number ("Description 2" -> "description"), to find the columns of one numbered set. */
export function headerBase(header: string): string {
  return normalizeHeader(header).replace(/ ?\d+$/, '')
}

/** Whether any role's names include this header (so a column of unknown header can be tried by its values). */
export function isKnownHeader(header: string): boolean {
  return KNOWN.has(normalizeHeader(header))
}
