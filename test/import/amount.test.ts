/** Amounts as banks write them (src/import/amount.ts): minor units from the text, symbols and codes. */
import { describe, expect, it } from 'vitest'
import { parseLocaleAmount } from '../../src/import/amount.js'

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
})
