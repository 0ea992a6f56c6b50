/**
 * Amounts on the command line. formatMoney is the one way finctl writes an
 * amount for people, grouped by the user's locale (setMoneyLocale: --locale, LC_ALL, LANG), the
 * code after: from exact minor units with the currency's decimals, never through float arithmetic.
 * Amounts the API gives (JSON numbers) are read back into minor units exactly first (minorOf): a
 * JSON amount's shortest decimal text is the amount. jsonAmount goes the other way, for the JSON
 * the CLI writes itself (import and preview summaries), so that every `--json` amount is a number.
 */
import { currencyExponent, isCurrency } from '../kernel/currencies.js'
import { AppError } from '../kernel/errors.js'
import { formatMinor, MAX_MINOR, minorText, minorToNumber, parseAmount, plainMinor } from '../kernel/money.js'
import { printableLine } from './terminal-text.js'

export interface MoneyStyle {
  /** Thousands grouping and decimal mark of the user's locale ("1,234.50", "1.234,50"): tables, summaries, prompts. */
  group?: boolean
  /** The currency code after the amount ("-149.99 USD"). */
  code?: boolean
}

/** Two decimals for a code finctl does not know (only text from outside can carry one). */
const exponentOf = (currency: string): number => (isCurrency(currency) ? currencyExponent(currency) : 2)

/** The locale amounts for people are written in (setMoneyLocale); undefined until `localeName` is made a tag. */
let locale: string | undefined = 'en-US'
/** The environment's locale name, made a tag on the first amount grouped (moneyLocale): most commands group none. */
let localeName: string | undefined
const formatters = new Map<string, Intl.NumberFormat>()

/**
 * The BCP 47 tag of a locale as the environment names it ("de_DE.UTF-8" -> "de-DE"); undefined for
 * none, "C" or "POSIX" (no locale: en-US's grouping) or a name Intl does not take.
 */
export function localeTag(name: string | undefined): string | undefined {
  const base = name?.trim().split(/[.@]/)[0].replace(/_/g, '-')
  if (!base || base === 'C' || base === 'POSIX') return undefined
  // Asking Intl loads ICU's locale data, a large part of a short command's start (docs/performance.md, "Start-up").
  if (base.toLowerCase() === 'en-us') return 'en-US'
  try {
    return Intl.NumberFormat.supportedLocalesOf([base])[0]
  } catch {
    return undefined
  }
}

/** The locale of `--locale`, else LC_ALL, LC_NUMERIC or LANG (the first one set); en-US when none is usable. */
export function setMoneyLocale(flag: string | undefined, env: Record<string, string | undefined>): void {
  if (flag !== undefined) {
    const tag = localeTag(flag)
    if (!tag) throw new AppError('usage', `--locale: "${flag}" is not a locale finctl knows; write it like en-US, de-DE or fr_FR.UTF-8`)
    locale = tag
    return
  }
  locale = undefined
  localeName = env.LC_ALL || env.LC_NUMERIC || env.LANG
}

export function moneyLocale(): string {
  locale ??= localeTag(localeName) ?? 'en-US'
  return locale
}

/**
 * Digits grouped by the locale. Intl.NumberFormat formats a decimal string exactly (no double in
 * between: "92233720368547758.07" stays so), so the text formatMinor made from minor units is what
 * it groups.
 */
function grouped(text: string, exponent: number): string {
  const tag = moneyLocale()
  if (tag === 'en-US') return groupedEnUs(text)
  const key = `${tag}/${exponent}`
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.NumberFormat(tag, { minimumFractionDigits: exponent, maximumFractionDigits: exponent, useGrouping: true })
    formatters.set(key, f)
  }
  return f.format(text as unknown as number)
}

/**
 * en-US's grouping of formatMinor's text ("-1234567.50" -> "-1,234,567.50"), as Intl.NumberFormat
 * writes it (test/cli/money-display.test.ts compares them), without loading ICU's data for it.
 */
export function groupedEnUs(text: string): string {
  const sign = text.startsWith('-') ? '-' : ''
  const dot = text.indexOf('.')
  const whole = text.slice(sign.length, dot < 0 ? text.length : dot)
  return sign + whole.replace(/\B(?=(\d{3})+$)/g, ',') + (dot < 0 ? '' : text.slice(dot))
}

/** "-1,234.50 USD", "-1234.50", "1,200 JPY", "-1.234,50 EUR" (de-DE): an amount of minor units, for people. */
export function formatMoney(minor: bigint | number, currency: string, style: MoneyStyle = {}): string {
  const exponent = exponentOf(currency)
  let text = formatMinor(minor, exponent)
  if (style.group) text = grouped(text, exponent)
  return style.code ? `${text} ${currency}` : text
}

/** Exact minor units of an amount the API gives (a JSON number, or decimal text); undefined if it is no amount of the currency. */
export function minorOf(amount: number | string, currency: string): bigint | undefined {
  const r = parseAmount(amount, exponentOf(currency))
  return r.ok ? BigInt(r.minor) : undefined
}

/** An amount the API gives, shown by formatMoney; one that is no amount of the currency (more decimals) as it is. */
export function showAmount(amount: number | string, currency: string, style: MoneyStyle = {}): string {
  // A JSON number's shortest decimal read without a regular expression or a BigInt (a list of a
  // million rows shows one a row): plainMinor reads it as parseAmount would, or leaves it to it.
  const plain = typeof amount === 'number' ? plainMinor(String(amount), '.', exponentOf(currency)) : undefined
  if (plain !== undefined) return formatMoney(plain, currency, style)
  const minor = minorOf(amount, currency)
  if (minor !== undefined) return formatMoney(minor, currency, style)
  return style.code ? `${amount} ${currency}` : `${amount}`
}

/**
 * showAmount of an API amount whose minor units came beside it (domain/transaction-rows.ts ListedTransaction), the
 * text written from the integer (minorText) instead of read back from the number. They are used only
 * when the number the API makes of them is this amount, so a stale or foreign value is never
 * written: anything else is showAmount's. test/cli/money-display.test.ts holds the two equal.
 */
export function showMinor(minor: number | undefined, amount: number, currency: string, style: MoneyStyle = {}): string {
  if (
    minor === undefined ||
    !Number.isSafeInteger(minor) ||
    minor > MAX_MINOR ||
    minor < -MAX_MINOR ||
    !isCurrency(currency) ||
    minorToNumber(minor, currency) !== amount
  )
    return showAmount(amount, currency, style)
  const exponent = currencyExponent(currency)
  let text = minorText(minor, exponent)
  if (style.group) text = grouped(text, exponent)
  return style.code ? `${text} ${currency}` : text
}

/** JSON.rawJSON (Node 21 and later; not in TypeScript's ES2023 library). */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON

/**
 * The JSON number of an amount of minor units, for JSON.stringify: a plain number when a double holds
 * it exactly (every single amount: at most 15 digits), else its exact decimal text as a raw JSON
 * number (a sum past 2^53 minor units), never a rounded one. Use it only in what is stringified.
 */
export function jsonAmount(minor: bigint | number, currency: string): number {
  const text = formatMinor(minor, exponentOf(currency))
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '')
  const n = Number(text)
  return String(n) === text ? n : (rawJSON(text) as number)
}

/** jsonAmount of decimal text (a summary's exact total); text that is no amount of the currency stays as it is. */
export function jsonAmountOf(text: string, currency: string): number | string {
  const minor = minorOf(text, currency)
  return minor === undefined ? text : jsonAmount(minor, currency)
}

/**
 * The note that a balance leaves transactions out (BankAccount.unconverted_transactions): on an
 * account not in the base currency, those in another currency have no rate into the account's.
 */
export function unconvertedNote(
  account: { name: string; currency_code: string },
  list: ReadonlyArray<{ currency_code: string; count: number; amount: number }>,
): string | undefined {
  if (list.length === 0) return undefined
  const parts = list.map(
    (u) =>
      `${u.count} ${u.count === 1 ? 'transaction' : 'transactions'} in ${u.currency_code} (${showAmount(u.amount, u.currency_code, { group: true, code: true })})`,
  )
  return `the balance of "${printableLine(account.name)}" leaves out ${parts.join(', ')}: they have no exchange rate into ${account.currency_code}, the account's currency; to count one, give its amount in ${account.currency_code} (tx update ID --amount ... --currency ${account.currency_code})`
}

/**
 * An amount as typed on the command line, as the API takes it: a leading minus sign (U+2212) is
 * '-', and grouping commas go when they can only be grouping, as tables print amounts
 * (`1,234.56`, `1,234,567`): a comma and exactly three digits, with a '.' decimal or several
 * groups. Given its flag, any other comma is refused naming it (`1,234` alone could be either).
 */
export function typedAmount(text: string, flag?: string): string
export function typedAmount(text: string | undefined, flag?: string): string | undefined
export function typedAmount(text: string | undefined, flag?: string): string | undefined {
  if (text === undefined) return undefined
  const t = text.trim().replace(/^\u2212/, '-')
  const grouped = /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) && (t.includes('.') || t.split(',').length > 2)
  if (grouped) return t.replaceAll(',', '')
  const problem = flag === undefined ? undefined : commaProblem(t)
  if (problem) throw new AppError('usage', `${flag} "${printableLine(text)}": ${problem}`)
  return t
}

/** Why a comma in an amount is not taken, in words; undefined when it has none. */
export function commaProblem(t: string): string | undefined {
  if (!t.includes(',')) return undefined
  const [whole, decimals] = t.replace(/^[-+]/, '').split(',')
  if (/^\d{1,3},\d{3}$/.test(t.replace(/^[-+]/, '')))
    return `is ambiguous: ${whole}${decimals} with a grouping comma, or ${whole}.${decimals} with a decimal comma; write ${whole}${decimals}, ${whole}.${decimals} or ${whole},${decimals}.00`
  return 'commas only group thousands in threes before a "." decimal (1,234.56); write the decimals after a "." (12.34)'
}
