/** Sums of a `tx import` per currency: a file may hold rows of several (a currency column, #27 item 10). */
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor } from '../../kernel/money.js'

export interface CurrencyTotal {
  currency: string
  rows: number
  amount_total: string
  created_total: string
}

/** Sums of minor units per currency: a file may hold rows of several (a currency column). */
export class CurrencyTotals {
  private sums = new Map<string, { rows: number; total: bigint; created: bigint }>()
  constructor(private readonly account: string) {}
  add(currency: string, minor: number, created: boolean): void {
    let t = this.sums.get(currency)
    if (!t) {
      t = { rows: 0, total: 0n, created: 0n }
      this.sums.set(currency, t)
    }
    if (created) t.created += BigInt(minor)
    else {
      t.rows++
      t.total += BigInt(minor)
    }
  }
  clear(): void {
    this.sums.clear()
  }
  clearCreated(): void {
    for (const t of this.sums.values()) t.created = 0n
  }
  into(summary: { amount_total: string; created_total: string; other_currencies?: CurrencyTotal[] }): void {
    const exp = currencyExponent(this.account)
    const own = this.sums.get(this.account)
    summary.amount_total = formatMinor(own?.total ?? 0n, exp)
    summary.created_total = formatMinor(own?.created ?? 0n, exp)
    const others = [...this.sums].filter(([c]) => c !== this.account).sort(([a], [b]) => (a < b ? -1 : 1))
    if (others.length) {
      summary.other_currencies = others.map(([c, t]) => ({
        currency: c,
        rows: t.rows,
        amount_total: formatMinor(t.total, currencyExponent(c)),
        created_total: formatMinor(t.created, currencyExponent(c)),
      }))
    } else delete summary.other_currencies
  }
}
