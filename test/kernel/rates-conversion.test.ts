/**
 * Conversion to the base currency: cross rates in exact decimal arithmetic, and base
 * amounts of integer minor units rounded half-even once per row, so that the base amount of a sum
 * and the sum of the rows' base amounts differ by at most half a minor unit per row.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertMinor, divideRates, parseRate } from '../../src/kernel/money.js'
import { currencyExponent } from '../../src/kernel/currencies.js'

/** The exact base amount of `minor` at `rate`, as a fraction n / d (BigInt): no rounding. */
function exact(minor: number, fromExp: number, rate: string, toExp: number): [bigint, bigint] {
  const [w, f = ''] = rate.split('.')
  return [BigInt(minor) * BigInt(w + f) * 10n ** BigInt(toExp), 10n ** BigInt(f.length + fromExp)]
}

/** A decimal rate of `digits` with `scale` decimals. */
const decimal = (digits: number, scale: number) => {
  const t = String(digits).padStart(scale + 1, '0')
  return parseRate(scale === 0 ? t : `${t.slice(0, -scale)}.${t.slice(-scale)}`)!
}
const rateArb = fc.tuple(fc.integer({ min: 1, max: 999_999_999 }), fc.integer({ min: 0, max: 8 })).map(([d, s]) => decimal(d, s))
/** Rates as they are between currencies: 10^-12 to 9,999.99, up to 6 significant digits. */
const realisticRate = fc.tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 2, max: 12 })).map(([d, s]) => decimal(d, s))

describe('divideRates: cross rates', () => {
  it.each([
    ['1', '1.0921', '0.915667063456'],
    ['1.0921', '158.41', '0.00689413547125'],
    ['0.86033', '1.0921', '0.787775844703'],
    ['3.4528', '1', '3.4528'],
    ['1', '3', '0.333333333333'],
    ['2', '3', '0.666666666667'],
    ['16960.62', '0.0001', '169606200'],
  ])('%s / %s = %s (12 significant digits, half-even)', (a, b, want) => {
    expect(divideRates(a, b)).toBe(want)
  })

  it('is within half a unit of its last digit of the exact quotient, for any two rates', () => {
    fc.assert(
      fc.property(rateArb, rateArb, (a, b) => {
        const q = divideRates(a, b)
        expect(parseRate(q)).toBe(q)
        const [an, as] = [BigInt(a.replace('.', '')), (a.split('.')[1] ?? '').length]
        const [bn, bs] = [BigInt(b.replace('.', '')), (b.split('.')[1] ?? '').length]
        const [qn, qs] = [BigInt(q.replace('.', '')), (q.split('.')[1] ?? '').length]
        // |q - a/b| <= 0.5 * 10^-qs (when q carries decimals) or its last significant digit's unit
        const sig = (q.includes('.') ? q.replace('.', '') : q.replace(/0+$/, '')).replace(/^0+/, '').length
        expect(sig).toBeLessThanOrEqual(12)
        // Compare q * bn * 10^as with an * 10^bs, all scaled to integers.
        const lhs = qn * bn * 10n ** BigInt(as)
        const rhs = an * 10n ** BigInt(bs) * 10n ** BigInt(qs)
        const diff = lhs > rhs ? lhs - rhs : rhs - lhs
        // half a unit of the last digit of q, times bn * 10^as
        const trailing = BigInt(q.replace('.', '').length - q.replace('.', '').replace(/0+$/, '').length)
        const unit = qs > 0 ? 1n : 10n ** trailing
        expect(2n * diff <= unit * bn * 10n ** BigInt(as)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})

describe.each(['JPY', 'BHD', 'CLF', 'EUR'])('base amounts of %s rows', (currency) => {
  const exp = currencyExponent(currency)
  for (const base of ['USD', 'JPY', 'BHD', 'CLF']) {
    if (base === currency) continue
    const toExp = currencyExponent(base)
    it(`to ${base}: the base amount of a sum is the sum of base amounts within half a minor unit per row`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: -100_000, max: 100_000 }), { minLength: 1, maxLength: 40 }), realisticRate, (rows, rate) => {
          const converted = rows.map((m) => convertMinor(m, exp, rate, toExp))
          const sumOfBase = converted.reduce((s, x) => s + BigInt(x), 0n)
          // Each row is within half a minor unit of its exact value ...
          rows.forEach((m, i) => {
            const [n, d] = exact(m, exp, rate, toExp)
            const err = BigInt(converted[i]) * d - n
            expect(2n * (err < 0n ? -err : err) <= d).toBe(true)
          })
          // ... so the sum of the rows is within n/2 of the exact base amount of the sum,
          const [n, d] = exact(
            rows.reduce((s, x) => s + x, 0),
            exp,
            rate,
            toExp,
          )
          const drift = sumOfBase * d - n
          expect(2n * (drift < 0n ? -drift : drift) <= BigInt(rows.length) * d).toBe(true)
          // and of the sum converted at once, within (n + 1) / 2.
          const total = rows.reduce((s, x) => s + x, 0)
          const once = BigInt(convertMinor(total, exp, rate, toExp))
          const gap = 2n * (once > sumOfBase ? once - sumOfBase : sumOfBase - once)
          expect(gap <= BigInt(rows.length + 1)).toBe(true)
        }),
        { numRuns: 200 },
      )
    })
  }

  it('rounds half to even, never through a float', () => {
    // 0.5 of a minor unit at rate 1 between exponents: 5 fils of BHD -> half a cent goes to the even cent
    if (currency !== 'BHD') return
    expect(convertMinor(5, 3, '1', 2)).toBe(0)
    expect(convertMinor(15, 3, '1', 2)).toBe(2)
    expect(convertMinor(-25, 3, '1', 2)).toBe(-2)
    // 0.1 + 0.2 style: 3 units at 0.1 is exactly 0.3, not 0.30000000000000004
    expect(convertMinor(3000, 3, '0.1', 2)).toBe(30)
  })
})
