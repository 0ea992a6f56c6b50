/** Amounts as banks write them (src/import/amount.ts): minor units from the text, symbols and codes. */
import { describe, expect, it } from 'vitest'
import { parseLocaleAmount } from '../../src/import/amount.js'
import { mulberry32 } from '../../src/kernel/random.js'

const minor = (text: string, decimal: '.' | ',' = '.', exponent = 2) => {
  const r = parseLocaleAmount(text, decimal, exponent)
  return r.ok ? r.minor : r.message
}

describe('parseLocaleAmount', () => {
  it('drops currency symbols and ISO currency codes before or after the number', () => {
    expect(minor('EUR 12,50', ',')).toBe(1250)
    expect(minor('12.50 USD')).toBe(1250)
    expect(minor('USD12.50')).toBe(1250)
    expect(minor('-1.234,56 €', ',')).toBe(-123456)
    expect(minor('(£1,000.00)')).toBe(-100000)
    expect(minor('CHF 1\u2019000.05')).toBe(100005)
  })

  it('refuses three capitals that are no currency code: a reference column mapped as the amount is no amount', () => {
    expect(minor('REF12')).toBe('"REF12" is not an amount')
    expect(minor('12 ABC')).toBe('"12 ABC" is not an amount')
    expect(minor('INV 7.00')).toBe('"INV 7.00" is not an amount')
  })

  it('reads plain amounts (digits, a minus, a decimal mark) as the general path does, to the last digit', () => {
    expect(minor('-1234.56')).toBe(-123456)
    expect(minor('1234,5', ',')).toBe(123450)
    expect(minor('0007.10')).toBe(710)
    expect(minor('-0.00')).toBe(0)
    expect(Object.is(minor('-0.00'), -0)).toBe(false)
    expect(minor('12', '.', 0)).toBe(12)
    expect(minor('12.000', '.', 0)).toBe(12)
    expect(minor('12.5', '.', 0)).toBe('this currency has no minor unit: give a whole amount')
    expect(minor('1.2345', '.', 4)).toBe(12345)
    expect(minor('9999999999999.99')).toBe(999999999999999)
    expect(minor('10000000000000.00')).toBe('"10000000000000.00" is too large: at most 15 digits')
    expect(minor('12.')).toBe('"12." is not an amount')
    expect(minor('1,234.50')).toBe(123450)
    expect(minor('1.234,50', ',')).toBe(123450)
    // Random plain texts, each against the same text with spaces around it (which the general path reads).
    const rnd = mulberry32(26)
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('')
    let compared = 0
    for (let k = 0; k < 20_000; k++) {
      const decimal = rnd() < 0.5 ? '.' : ','
      const exponent = Math.floor(rnd() * 5)
      const zeros = rnd() < 0.2 ? '0'.repeat(1 + Math.floor(rnd() * 3)) : ''
      const frac = rnd() < 0.7 ? `${decimal}${digits(1 + Math.floor(rnd() * 5))}${rnd() < 0.3 ? '00' : ''}` : ''
      const text = `${rnd() < 0.4 ? '-' : ''}${zeros}${digits(1 + Math.floor(rnd() * 16))}${frac}`
      const plain = parseLocaleAmount(text, decimal, exponent)
      const general = parseLocaleAmount(` ${text} `, decimal, exponent)
      expect([text, plain.ok, plain.ok && plain.minor]).toEqual([text, general.ok, general.ok && general.minor])
      if (plain.ok) compared++
    }
    expect(compared).toBeGreaterThan(5_000)
  })
})
