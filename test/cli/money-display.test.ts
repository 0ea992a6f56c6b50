/**
 * Money on the command line (src/cli/format.ts, totals.ts, chart.ts): the currency's own decimals,
 * exact sums in minor units (never a float total), thousands separators and the bar chart's scale.
 */
import { Chalk } from 'chalk'
import { describe, expect, it } from 'vitest'
import type { Transaction } from '../../src/domain/schemas.js'
import { IN_BLOCK, OUT_BLOCK, barChart, grouped, minorOf, plain, signed } from '../../src/cli/chart.js'
import { formatAmount, formatDecimal, mask, parseDuration, today } from '../../src/cli/format.js'
import { amountTotal } from '../../src/cli/totals.js'
import { AppError } from '../../src/kernel/errors.js'

const plainChalk = new Chalk({ level: 0 })
const tx = (amount: number, currency_code = 'USD') => ({ amount, currency_code }) as Transaction

describe('formatAmount and formatDecimal', () => {
  it('write the currency’s own number of decimals', () => {
    expect(formatAmount(-149.99, 'USD')).toBe('-149.99 USD')
    expect(formatAmount(-149.9, 'USD')).toBe('-149.90 USD')
    expect(formatAmount(12, 'EUR')).toBe('12.00 EUR')
    expect(formatAmount(1200, 'JPY')).toBe('1200 JPY')
    expect(formatAmount(1.5, 'KWD')).toBe('1.500 KWD')
    expect(formatDecimal(-0.05, 'USD')).toBe('-0.05')
    expect(formatDecimal(-0, 'USD')).toBe('0.00')
  })

  it('write large amounts in full, without exponent or rounding', () => {
    expect(formatAmount(9007199254740.99, 'USD')).toBe('9007199254740.99 USD')
    expect(formatDecimal(123456789012, 'JPY')).toBe('123456789012')
  })

  it('leave what they cannot read as given: an unknown currency, more decimals than the currency has', () => {
    expect(formatAmount(5, 'XYZ')).toBe('5 XYZ')
    expect(formatDecimal(12.345, 'USD')).toBe('12.345')
  })
})

describe('amountTotal (the footer of a transaction table)', () => {
  it('sums in minor units: 0.10 + 0.20 is 0.30, not 0.30000000000000004', () => {
    expect(amountTotal([tx(0.1), tx(0.2)])).toEqual(['', '', 'total of 2', '0.30 USD', '', ''])
    const many = Array.from({ length: 1000 }, () => tx(0.01))
    expect(amountTotal(many)?.[3]).toBe('10.00 USD')
    expect(amountTotal([tx(1234567.89), tx(-0.89), tx(-1234567)])?.[3]).toBe('0.00 USD')
  })

  it('sums past 2^53 minor units exactly (each amount is below it, the total is not)', () => {
    // The largest amount the service takes (15 digits of cents), ten times: past Number.MAX_SAFE_INTEGER cents.
    expect(amountTotal(Array.from({ length: 10 }, () => tx(9999999999999.99)))?.[3]).toBe('99999999999999.90 USD')
  })

  it('uses the currency’s decimals', () => {
    expect(amountTotal([tx(1000, 'JPY'), tx(-1, 'JPY')])?.[3]).toBe('999 JPY')
    expect(amountTotal([tx(0.001, 'BHD'), tx(0.002, 'BHD')])?.[3]).toBe('0.003 BHD')
  })

  it('gives no total where it would mean nothing: no rows, mixed currencies, an unknown currency, an amount it cannot read', () => {
    expect(amountTotal([])).toBeUndefined()
    expect(amountTotal([tx(1), tx(1, 'EUR')])).toBeUndefined()
    expect(amountTotal([tx(1, 'XYZ')])).toBeUndefined()
    expect(amountTotal([tx(1), tx(0.001)])).toBeUndefined()
  })
})

describe('report amounts', () => {
  it('grouped: thousands separators, the currency’s decimals, negative sign kept', () => {
    expect(grouped(-1234567.5, 'USD')).toBe('-1,234,567.50')
    expect(grouped(999, 'USD')).toBe('999.00')
    expect(grouped(1000, 'USD')).toBe('1,000.00')
    expect(grouped(1234567, 'JPY')).toBe('1,234,567')
    expect(grouped(1234.567, 'BHD')).toBe('1,234.567')
    expect(grouped(-100000n, 'USD')).toBe('-1,000.00')
  })

  it('plain: the decimal text for machine output, no separators', () => {
    expect(plain(-1234567.5, 'USD')).toBe('-1234567.50')
    expect(plain(5n, 'JPY')).toBe('5')
  })

  it('minorOf refuses an amount with more decimals than the currency has', () => {
    expect(minorOf(12.34, 'USD')).toBe(1234n)
    expect(() => minorOf(12.345, 'USD')).toThrow(/12.345 is not an amount in USD/)
  })

  it('signed: red only when negative, and plain text at colour level 0 (NO_COLOR)', () => {
    const red = new Chalk({ level: 1 })
    expect(signed(red, -5, 'USD')).toBe('\x1b[31m-5.00\x1b[39m')
    expect(signed(red, 5, 'USD')).toBe('5.00')
    expect(signed(plainChalk, -5, 'USD')).toBe('-5.00')
  })
})

describe('barChart', () => {
  const rows = [
    { label: '2026-01', inflows: 1000, outflows: 250 },
    { label: '2026-02', inflows: 0.01, outflows: 0 },
  ]

  it('fits the width given, scales bars to the largest amount, a tiny amount still shows one block', () => {
    const text = barChart(rows, 'USD', 60, plainChalk)
    const lines = text.trimEnd().split('\n')
    expect(lines).toHaveLength(2 * rows.length + 1)
    for (const l of lines.slice(0, -1)) expect([...l].length).toBeLessThanOrEqual(60)
    const blocks = (l: string, b: string) => [...l].filter((c) => c === b).length
    const full = blocks(lines[0], IN_BLOCK)
    expect(full).toBeGreaterThan(0)
    expect(blocks(lines[1], OUT_BLOCK)).toBe(Math.round(full / 4))
    expect(blocks(lines[2], IN_BLOCK)).toBe(1)
    expect(blocks(lines[3], OUT_BLOCK)).toBe(0)
    expect(lines[0]).toMatch(/^2026-01 in {2}█+ +1,000\.00$/)
    expect(lines[1]).toMatch(/^ {8}out ░+ +250\.00$/)
    expect(lines.at(-1)).toBe('█ in (money received)  ░ out (money paid), USD; a full bar is 1,000.00 USD')
  })

  it('all zero: no bars, and no scale to state', () => {
    const text = barChart([{ label: '2026-01', inflows: 0, outflows: 0 }], 'USD', 60, plainChalk)
    expect(text).not.toContain(IN_BLOCK + IN_BLOCK)
    expect(text.trimEnd().split('\n').at(-1)).toBe('█ in (money received)  ░ out (money paid), USD')
  })

  it('no colour escapes at colour level 0', () => {
    expect(barChart(rows, 'USD', 60, plainChalk)).not.toContain('\x1b[')
    expect(barChart(rows, 'USD', 60, new Chalk({ level: 1 }))).toContain('\x1b[32m')
  })
})

describe('durations, masks, dates', () => {
  it('parseDuration reads s, m, h, d and w, any case, spaces around', () => {
    expect(parseDuration('90d')).toBe(90 * 86_400_000)
    expect(parseDuration(' 12H ')).toBe(12 * 3_600_000)
    expect(parseDuration('2 w')).toBe(14 * 86_400_000)
    expect(parseDuration('30m')).toBe(1_800_000)
    expect(parseDuration('0s')).toBe(0)
  })

  it('parseDuration refuses anything else with a usage error that shows how to write one', () => {
    for (const bad of ['', '90', 'd', '1.5d', '-1d', '3y', '1d2h']) {
      const e = (() => {
        try {
          parseDuration(bad)
        } catch (err) {
          return err
        }
      })()
      expect(e, bad).toBeInstanceOf(AppError)
      expect((e as AppError).code).toBe('usage')
      expect((e as AppError).message).toBe(`"${bad}" is not a duration: write it like 90d, 12h, 30m or 2w`)
    }
  })

  it('mask keeps the prefix only; today is the UTC date', () => {
    expect(mask('fds_abcdefgh12345678')).toBe('fds_abcdefgh…')
    expect(mask(undefined)).toBe('')
    expect(mask('short', 12)).toBe('short…')
    expect(today(new Date('2026-12-31T23:59:59-05:00'))).toBe('2027-01-01')
  })
})
