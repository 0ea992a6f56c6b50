/**
 * Amounts on the command line (#47 item 7). formatMoney is the one way finctl writes an amount for
 * people: from exact minor units with the currency's decimals, never through float arithmetic.
 * Amounts the API gives (JSON numbers) are read back into minor units exactly first (minorOf): a
 * JSON amount's shortest decimal text is the amount. jsonAmount goes the other way, for the JSON
 * the CLI writes itself (import and preview summaries), so that every `--json` amount is a number.
 */
import { currencyExponent, isCurrency } from '../kernel/currencies.js'
import { formatMinor, parseAmount } from '../kernel/money.js'

export interface MoneyStyle {
  /** Thousands separators ("1,234.50"): terminal tables and messages. */
  group?: boolean
  /** The currency code after the amount ("-149.99 USD"). */
  code?: boolean
}

/** Two decimals for a code finctl does not know (only text from outside can carry one). */
const exponentOf = (currency: string): number => (isCurrency(currency) ? currencyExponent(currency) : 2)

/** "-1,234.50 USD", "-1234.50", "1200 JPY", "1.500 KWD": an amount of minor units, for people. */
export function formatMoney(minor: bigint | number, currency: string, style: MoneyStyle = {}): string {
  let text = formatMinor(minor, exponentOf(currency))
  if (style.group) {
    const [whole, frac] = text.split('.')
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
    text = frac === undefined ? grouped : `${grouped}.${frac}`
  }
  return style.code ? `${text} ${currency}` : text
}

/** Exact minor units of an amount the API gives (a JSON number, or decimal text); undefined if it is no amount of the currency. */
export function minorOf(amount: number | string, currency: string): bigint | undefined {
  const r = parseAmount(amount, exponentOf(currency))
  return r.ok ? BigInt(r.minor) : undefined
}

/** An amount the API gives, shown by formatMoney; one that is no amount of the currency (more decimals) as it is. */
export function showAmount(amount: number | string, currency: string, style: MoneyStyle = {}): string {
  const minor = minorOf(amount, currency)
  if (minor !== undefined) return formatMoney(minor, currency, style)
  return style.code ? `${amount} ${currency}` : `${amount}`
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
  return `the balance of "${account.name}" leaves out ${parts.join(', ')}: they have no exchange rate into ${account.currency_code}, the account's currency; to count one, give its amount in ${account.currency_code} (tx update ID --amount ... --currency ${account.currency_code})`
}
