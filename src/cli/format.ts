/** Display helpers: amounts with fixed decimals and their currency, dates and durations. */
import { currencyExponent, isCurrency } from '../kernel/currencies.js'
import { formatMinor, parseAmount } from '../kernel/money.js'
import { AppError } from '../kernel/errors.js'

/** "-149.99 USD": fixed decimals for the currency; never through float arithmetic. */
export function formatAmount(amount: number, currency: string): string {
  return `${formatDecimal(amount, currency)} ${currency}`
}

/** "-149.99": the amount alone with the currency's fixed decimals (a spreadsheet's number). */
export function formatDecimal(amount: number, currency: string): string {
  if (!isCurrency(currency)) return `${amount}`
  const exp = currencyExponent(currency)
  const r = parseAmount(amount, exp)
  return r.ok ? formatMinor(r.minor, exp) : `${amount}`
}

/** "90d", "12h", "30m", "2w" -> milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhdw])$/i.exec(text.trim())
  if (!m) throw new AppError('usage', `"${text}" is not a duration: write it like 90d, 12h, 30m or 2w`)
  const unit = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }[m[2].toLowerCase() as 's']
  return Number(m[1]) * unit
}

export function mask(secret: string | undefined, keep = 12): string {
  if (!secret) return ''
  return `${secret.slice(0, keep)}…`
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10)
}
