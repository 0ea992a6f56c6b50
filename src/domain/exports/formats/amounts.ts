/** Amounts of an export as exact decimal text in their currency's decimals: parsed from the JSON number's text, never through float arithmetic. */
import { currencyExponent } from '../../../kernel/currencies.js'
import { formatMinor, parseAmount } from '../../../kernel/money.js'

export function minorOf(amount: number, currency: string): number {
  const r = parseAmount(amount, currencyExponent(currency))
  if (!r.ok) throw new Error(`${amount} ${currency} is not an amount of that currency: ${r.message}`)
  return r.minor
}

/** "-12.34" for (-1234, EUR); "-1200" for (-1200, JPY). */
export function decimal(minor: number, currency: string): string {
  return formatMinor(minor, currencyExponent(currency))
}
