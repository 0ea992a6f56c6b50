/** Total rows for transaction tables: only where they mean something (one currency). */
import type { Transaction } from '../domain/schemas.js'
import { isCurrency } from '../kernel/currencies.js'
import { formatMoney, minorOf } from './money.js'

/** A footer row [id, date, description, amount, account, category, status] with the exact sum, or undefined for mixed currencies. */
export function amountTotal(rows: Transaction[]): string[] | undefined {
  if (rows.length === 0) return undefined
  const currency = rows[0].currency_code
  if (!isCurrency(currency) || rows.some((r) => r.currency_code !== currency)) return undefined
  let sum = 0n
  for (const r of rows) {
    const minor = minorOf(r.amount, currency)
    if (minor === undefined) return undefined
    sum += minor
  }
  return ['', '', `total of ${rows.length}`, formatMoney(sum, currency, { group: true, code: true }), '', '', '']
}
