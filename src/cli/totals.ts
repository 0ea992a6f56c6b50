/** Total rows for transaction tables: only where they mean something (one currency). */
import type { Transaction } from '../domain/schemas.js'
import { currencyExponent, isCurrency } from '../kernel/currencies.js'
import { formatMinor, parseAmount } from '../kernel/money.js'

/** A footer row [id, date, description, amount, ...] with the exact sum, or undefined for mixed currencies. */
export function amountTotal(rows: Transaction[]): string[] | undefined {
  if (rows.length === 0) return undefined
  const currency = rows[0].currency_code
  if (!isCurrency(currency) || rows.some((r) => r.currency_code !== currency)) return undefined
  const exp = currencyExponent(currency)
  let sum = 0n
  for (const r of rows) {
    const p = parseAmount(r.amount, exp)
    if (!p.ok) return undefined
    sum += BigInt(p.minor)
  }
  return ['', '', `total of ${rows.length}`, `${formatMinor(sum, exp)} ${currency}`, '', '']
}
