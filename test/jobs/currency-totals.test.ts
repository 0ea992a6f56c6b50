/** An import's sums (src/jobs/import/currency-totals.ts): exact to the last minor unit at any size, per currency. */
import { describe, expect, it } from 'vitest'
import { type CurrencyTotal, CurrencyTotals, MinorSum } from '../../src/jobs/import/currency-totals.js'
import { mulberry32 } from '../../src/kernel/random.js'

describe('MinorSum', () => {
  it('adds as BigInt does, past 2^53 and back, with amounts of up to 15 digits', () => {
    const rnd = mulberry32(53)
    const sum = new MinorSum()
    let exact = 0n
    for (let i = 0; i < 50_000; i++) {
      // Mostly the largest amounts, one sign for a long run (the sum passes 2^53 many times), then the other.
      const sign = i % 20_000 < 15_000 ? 1 : -1
      const minor = sign * (rnd() < 0.9 ? 999_999_999_999_999 - Math.floor(rnd() * 1000) : Math.floor(rnd() * 10_000))
      sum.add(minor)
      exact += BigInt(minor)
      if (i % 997 === 0) expect(sum.value).toBe(exact)
    }
    expect(exact > 2n ** 60n).toBe(true)
    expect(sum.value).toBe(exact)
  })
})

describe('CurrencyTotals', () => {
  it("sums the account's currency and the others apart, read and created", () => {
    const t = new CurrencyTotals('EUR')
    for (let i = 0; i < 20_000; i++) t.add('EUR', 999_999_999_999_999, false)
    t.add('EUR', -1, false)
    t.add('EUR', 250, true)
    t.add('USD', 1_050, false)
    t.add('JPY', 7, false)
    const summary: { amount_total: string; created_total: string; other_currencies?: CurrencyTotal[] } = {
      amount_total: '',
      created_total: '',
    }
    t.into(summary)
    expect(summary).toEqual({
      amount_total: `${(20_000n * 999_999_999_999_999n - 1n) / 100n}.${String((20_000n * 999_999_999_999_999n - 1n) % 100n).padStart(2, '0')}`,
      created_total: '2.50',
      other_currencies: [
        { currency: 'JPY', rows: 1, amount_total: '7', created_total: '0' },
        { currency: 'USD', rows: 1, amount_total: '10.50', created_total: '0.00' },
      ],
    })
    t.clearCreated()
    t.into(summary)
    expect(summary.created_total).toBe('0.00')
  })
})
