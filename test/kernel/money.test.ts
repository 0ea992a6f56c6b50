import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertMinor, divHalfEven, formatMinor, minorText, minorToNumber, parseAmount, parseRate } from '../../src/kernel/money.js'
import { CURRENCY_CODES, currencyExponent, isCurrency } from '../../src/kernel/currencies.js'

describe('parseAmount', () => {
  it.each([
    ['-149.99', 2, -14999],
    ['149.9', 2, 14990],
    ['0.10', 2, 10],
    ['1000', 0, 1000],
    ['1.250', 3, 1250],
    ['-0.00', 2, 0],
    ['\u221212.34', 2, -1234],
    ['+5', 2, 500],
    ['007.50', 2, 750],
  ])('%s with exponent %i is %i minor units', (text, exp, minor) => {
    expect(parseAmount(text, exp)).toEqual({ ok: true, minor })
  })

  it('takes JSON numbers through their shortest decimal form', () => {
    expect(parseAmount(-149.99, 2)).toEqual({ ok: true, minor: -14999 })
    expect(parseAmount(0.1, 2)).toEqual({ ok: true, minor: 10 })
    expect(parseAmount(1.005, 3)).toEqual({ ok: true, minor: 1005 })
  })

  it.each([
    ['1.999', 2, 'too_many_decimals'],
    ['1.5', 0, 'too_many_decimals'],
    ['1e3', 2, 'not_a_number'],
    ['12,50', 2, 'not_a_number'],
    ['abc', 2, 'not_a_number'],
    ['', 2, 'not_a_number'],
    ['10000000000000000', 2, 'out_of_range'],
  ])('refuses %s (exponent %i): %s', (text, exp, error) => {
    const r = parseAmount(text, exp)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toBe(error)
  })

  it('refuses NaN and Infinity', () => {
    expect(parseAmount(Number.NaN, 2).ok).toBe(false)
    expect(parseAmount(Number.POSITIVE_INFINITY, 2).ok).toBe(false)
  })

  it('round-trips every amount through text and JSON numbers exactly, for every exponent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), fc.constantFrom(0, 2, 3, 4), (minor, exp) => {
        const text = formatMinor(minor, exp)
        expect(parseAmount(text, exp)).toEqual({ ok: true, minor: minor === 0 ? 0 : minor })
        // the JSON number the API sends parses back to the same minor units
        const asNumber = JSON.parse(JSON.stringify(Number(text))) as number
        expect(parseAmount(asNumber, exp)).toEqual({ ok: true, minor: minor === 0 ? 0 : minor })
      }),
      { numRuns: 2000 },
    )
  })
})

describe('formatMinor', () => {
  it('writes fixed decimals', () => {
    expect(formatMinor(-14999, 2)).toBe('-149.99')
    expect(formatMinor(5, 2)).toBe('0.05')
    expect(formatMinor(-5, 3)).toBe('-0.005')
    expect(formatMinor(1000, 0)).toBe('1000')
    expect(minorToNumber(-14999, 'USD')).toBe(-149.99)
    expect(minorToNumber(1500, 'JPY')).toBe(1500)
    expect(minorToNumber(1234, 'BHD')).toBe(1.234)
  })

  it('minorToNumber is the number of the decimal text, for every safe integer and currency', () => {
    const edges = [0, -0, 1, -1, 5, 10, 99, 100, 101, 2 ** 53 - 1, -(2 ** 53 - 1), 999_999_999_999_999, 123_456_789_012_345]
    for (const code of CURRENCY_CODES)
      for (const m of edges)
        expect(Object.is(minorToNumber(m, code), Number(formatMinor(m, currencyExponent(code)))), `${m} ${code}`).toBe(true)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1e6, max: 1e6 }),
          fc.maxSafeInteger().map((n) => n % 1e15),
          fc.maxSafeNat(),
          fc.integer().map((n) => -n),
        ),
        fc.constantFrom(...CURRENCY_CODES),
        (m, code) => Object.is(minorToNumber(m, code), Number(formatMinor(m, currencyExponent(code)))),
      ),
      { numRuns: 20000 },
    )
  })
})

describe('minorText', () => {
  const edges = [
    0,
    -0,
    1,
    -1,
    5,
    -5,
    9,
    10,
    99,
    100,
    101,
    999,
    1000,
    1001,
    9999,
    10000,
    10001,
    -10001,
    123_456,
    -120_000,
    999_999_999_999_999,
    -999_999_999_999_999,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
  ]
  const exponents = [...new Set(CURRENCY_CODES.map(currencyExponent))]

  it('is formatMinor for edge values on every currency, and past a safe integer or exponent 4', () => {
    expect(exponents.sort()).toEqual([0, 2, 3, 4])
    for (const code of CURRENCY_CODES)
      for (const m of edges) expect(minorText(m, currencyExponent(code)), `${m} ${code}`).toBe(formatMinor(m, currencyExponent(code)))
    for (const m of [2 ** 53, -(2 ** 53), 1e20, -1e20]) for (const e of [0, 2, 3, 4]) expect(minorText(m, e)).toBe(formatMinor(m, e))
    for (const m of edges) for (const e of [5, 6, 8]) expect(minorText(m, e)).toBe(formatMinor(m, e))
  })

  it('is formatMinor for any safe integer on every currency', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1e6, max: 1e6 }),
          fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
          fc.maxSafeInteger(),
          fc.constantFrom(...edges),
        ),
        fc.constantFrom(...CURRENCY_CODES),
        (m, code) => minorText(m, currencyExponent(code)) === formatMinor(m, currencyExponent(code)),
      ),
      { numRuns: 20000 },
    )
  })
})

describe('exchange rates and conversion', () => {
  it('normalises rates and refuses bad ones', () => {
    expect(parseRate('1.10')).toBe('1.1')
    expect(parseRate(0.9)).toBe('0.9')
    expect(parseRate('0001.5000')).toBe('1.5')
    expect(parseRate('0')).toBeNull()
    expect(parseRate('-1')).toBeNull()
    expect(parseRate('abc')).toBeNull()
  })

  it('rounds half to even', () => {
    expect(divHalfEven(5n, 2n)).toBe(2n) // 2.5 -> 2
    expect(divHalfEven(7n, 2n)).toBe(4n) // 3.5 -> 4
    expect(divHalfEven(-5n, 2n)).toBe(-2n)
    expect(divHalfEven(-7n, 2n)).toBe(-4n)
    expect(divHalfEven(11n, 4n)).toBe(3n) // 2.75 -> 3
    expect(divHalfEven(-9n, 4n)).toBe(-2n) // -2.25 -> -2
  })

  it('converts between exponents exactly', () => {
    // 100.00 EUR at 1.1 -> 110.00 USD
    expect(convertMinor(10000, 2, '1.1', 2)).toBe(11000)
    // 1000 JPY at 0.0067 USD -> 6.70 USD
    expect(convertMinor(1000, 0, '0.0067', 2)).toBe(670)
    // 0.125 BHD... 1.005 USD at 1 to BHD exponent 3 -> 1.005 BHD
    expect(convertMinor(1005, 2, '0.5', 2)).toBe(502) // 5.025 -> 5.02 (half even)
    expect(convertMinor(1015, 2, '0.5', 2)).toBe(508) // 5.075 -> 5.08
    expect(convertMinor(12345, 2, '1', 0)).toBe(123) // 123.45 USD -> 123 JPY-like
  })

  it('agrees with exact rational arithmetic on random inputs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 6 }),
        (minor, rateInt, scale) => {
          const rate = formatMinor(rateInt, scale)
          // exact value = minor * rateInt / 10^scale; |got - exact| <= 1/2
          const num = BigInt(minor) * BigInt(rateInt)
          const den = 10n ** BigInt(scale)
          if (num / den > 999_999_999_999_990n || num / den < -999_999_999_999_990n) {
            expect(() => convertMinor(minor, 2, parseRate(rate)!, 2)).toThrow(RangeError)
            return
          }
          const got = BigInt(convertMinor(minor, 2, parseRate(rate)!, 2))
          const diff2 = 2n * (got * den - num)
          expect(diff2 <= den && diff2 >= -den).toBe(true)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe('currencies', () => {
  it('knows ISO 4217 exponents', () => {
    expect(currencyExponent('USD')).toBe(2)
    expect(currencyExponent('JPY')).toBe(0)
    expect(currencyExponent('BHD')).toBe(3)
    expect(currencyExponent('CLF')).toBe(4)
    expect(isCurrency('XYZ')).toBe(false)
    expect(CURRENCY_CODES.length).toBeGreaterThan(150)
  })
})

describe('plain amounts and safe integers (the paths a bulk import takes on every row)', () => {
  it('parseAmount reads a plain text as the general path reads the same text with a space before it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?\d{1,18}(\.\d{1,7})?$/), fc.integer({ min: 0, max: 4 }), (text, exponent) => {
        expect(parseAmount(text, exponent)).toEqual(parseAmount(` ${text}`, exponent))
      }),
      { numRuns: 5000 },
    )
    expect(parseAmount('-0012.300', 3)).toEqual({ ok: true, minor: -12300 })
    expect(parseAmount('-0.000', 2)).toEqual({ ok: true, minor: 0 })
    expect(parseAmount('1.005', 2)).toEqual({
      ok: false,
      error: 'too_many_decimals',
      message: 'at most 2 decimal places for this currency',
    })
  })

  it('formatMinor writes a safe integer as it writes the same BigInt', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 4 }), (minor, exponent) => {
        expect(formatMinor(minor, exponent)).toBe(formatMinor(BigInt(minor), exponent))
      }),
      { numRuns: 5000 },
    )
    expect(formatMinor(-0, 2)).toBe('0.00')
    expect(formatMinor(-5, 2)).toBe('-0.05')
  })
})
