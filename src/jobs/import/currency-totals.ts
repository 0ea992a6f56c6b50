/** Sums of a `tx import` per currency: a file may hold rows of several (a currency column). */
import { currencyExponent } from '../../kernel/currencies.js'
import { formatMinor } from '../../kernel/money.js'

export interface CurrencyTotal {
  currency: string
  rows: number
  amount_total: string
  created_total: string
  /** --review: the sum of the rows `imports apply` would create. */
  pending_total?: string
}

/**
 * A sum of minor units, exact at any size: a Number while it is safely below 2^53 (an amount has at
 * most 15 digits, under 2^50, so one more cannot pass 2^53), moved into a BigInt beyond 2^52. An
 * import adds two a row: a BigInt each took an allocation a row.
 */
export class MinorSum {
  private small = 0
  private large = 0n
  add(minor: number): void {
    this.small += minor
    if (this.small > 2 ** 52 || this.small < -(2 ** 52)) {
      this.large += BigInt(this.small)
      this.small = 0
    }
  }
  get value(): bigint {
    return this.large + BigInt(this.small)
  }
}

/** Sums of minor units per currency: a file may hold rows of several (a currency column). */
export class CurrencyTotals {
  private sums = new Map<string, { rows: number; total: MinorSum; created: MinorSum }>()
  constructor(private readonly account: string) {}
  add(currency: string, minor: number, created: boolean): void {
    let t = this.sums.get(currency)
    if (!t) {
      t = { rows: 0, total: new MinorSum(), created: new MinorSum() }
      this.sums.set(currency, t)
    }
    if (created) t.created.add(minor)
    else {
      t.rows++
      t.total.add(minor)
    }
  }
  clear(): void {
    this.sums.clear()
  }
  clearCreated(): void {
    for (const t of this.sums.values()) t.created = new MinorSum()
  }
  into(summary: { amount_total: string; created_total: string; other_currencies?: CurrencyTotal[] }): void {
    const exp = currencyExponent(this.account)
    const own = this.sums.get(this.account)
    summary.amount_total = formatMinor(own?.total.value ?? 0n, exp)
    summary.created_total = formatMinor(own?.created.value ?? 0n, exp)
    const others = [...this.sums].filter(([c]) => c !== this.account).sort(([a], [b]) => (a < b ? -1 : 1))
    if (others.length) {
      summary.other_currencies = others.map(([c, t]) => ({
        currency: c,
        rows: t.rows,
        amount_total: formatMinor(t.total.value, currencyExponent(c)),
        created_total: formatMinor(t.created.value, currencyExponent(c)),
      }))
    } else delete summary.other_currencies
  }
}
