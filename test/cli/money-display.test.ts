/**
 * Money on the command line (src/cli/money.ts, totals.ts, chart.ts): one formatter with the
 * currency's own decimals, exact sums in minor units (never a float total), thousands separators,
 * JSON numbers made from minor units, and the bar chart's scale.
 */
import { Chalk } from 'chalk'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { Transaction } from '../../src/domain/schemas.js'
import { IN_BLOCK, OUT_BLOCK, barChart, signed } from '../../src/cli/chart.js'
import { mask, parseDuration, today } from '../../src/cli/format.js'
import {
  formatMoney,
  groupedEnUs,
  jsonAmount,
  jsonAmountOf,
  localeTag,
  minorOf,
  setMoneyLocale,
  showAmount,
  unconvertedNote,
} from '../../src/cli/money.js'
import { amountTotal } from '../../src/cli/totals.js'
import { AppError } from '../../src/kernel/errors.js'
import { formatMinor } from '../../src/kernel/money.js'

const plainChalk = new Chalk({ level: 0 })
const tx = (amount: number, currency_code = 'USD') => ({ amount, currency_code }) as Transaction

describe('formatMoney (every amount shown to people) and showAmount (an amount the API gave)', () => {
  it('write the currency’s own number of decimals, from minor units', () => {
    expect(formatMoney(-14999, 'USD', { code: true })).toBe('-149.99 USD')
    expect(formatMoney(-14990n, 'USD')).toBe('-149.90')
    expect(formatMoney(1200, 'JPY', { code: true })).toBe('1200 JPY')
    expect(formatMoney(1500, 'KWD', { code: true })).toBe('1.500 KWD')
    expect(formatMoney(-5, 'USD')).toBe('-0.05')
    expect(showAmount(-149.99, 'USD', { code: true })).toBe('-149.99 USD')
    expect(showAmount(-149.9, 'USD', { code: true })).toBe('-149.90 USD')
    expect(showAmount(12, 'EUR', { code: true })).toBe('12.00 EUR')
    expect(showAmount('-98.7', 'USD')).toBe('-98.70')
    expect(showAmount(-0, 'USD')).toBe('0.00')
  })

  it('group thousands only when asked, the sign and decimals kept', () => {
    expect(showAmount(-1234567.5, 'USD', { group: true })).toBe('-1,234,567.50')
    expect(showAmount(999, 'USD', { group: true })).toBe('999.00')
    expect(showAmount(1000, 'USD', { group: true, code: true })).toBe('1,000.00 USD')
    expect(showAmount(1234567, 'JPY', { group: true })).toBe('1,234,567')
    expect(showAmount(1234.567, 'BHD', { group: true })).toBe('1,234.567')
    expect(formatMoney(-100000n, 'USD', { group: true })).toBe('-1,000.00')
    expect(showAmount(-1234567.5, 'USD')).toBe('-1234567.50')
  })

  it('write large amounts in full, without exponent or rounding; sums past 2^53 exactly', () => {
    expect(showAmount(9007199254740.99, 'USD', { code: true })).toBe('9007199254740.99 USD')
    expect(showAmount(123456789012, 'JPY')).toBe('123456789012')
    expect(formatMoney(10n * 999_999_999_999_999n, 'USD', { group: true })).toBe('99,999,999,999,999.90')
  })

  it('minorOf reads an API amount exactly, and refuses one with more decimals than the currency has', () => {
    expect(minorOf(12.34, 'USD')).toBe(1234n)
    expect(minorOf('-98.76', 'USD')).toBe(-9876n)
    expect(minorOf(12.345, 'USD')).toBeUndefined()
  })

  it('leave what they cannot read as given: an unknown currency, more decimals than the currency has', () => {
    expect(showAmount(5, 'XYZ', { code: true })).toBe('5.00 XYZ')
    expect(showAmount(12.345, 'USD')).toBe('12.345')
    expect(showAmount(12.345, 'USD', { code: true })).toBe('12.345 USD')
  })
})

describe('jsonAmount: the JSON number of minor units', () => {
  it('is a plain number, the amount’s shortest decimal, for every amount of 15 digits', () => {
    expect(JSON.stringify({ a: jsonAmount(-9876, 'USD') })).toBe('{"a":-98.76}')
    expect(JSON.stringify({ a: jsonAmount(-9870n, 'USD') })).toBe('{"a":-98.7}')
    expect(JSON.stringify({ a: jsonAmount(0, 'USD') })).toBe('{"a":0}')
    expect(JSON.stringify({ a: jsonAmount(1200, 'JPY') })).toBe('{"a":1200}')
    expect(JSON.stringify({ a: jsonAmount(1, 'BHD') })).toBe('{"a":0.001}')
    expect(JSON.stringify({ a: jsonAmount(999_999_999_999_999, 'USD') })).toBe('{"a":9999999999999.99}')
    expect(typeof jsonAmount(-9876, 'USD')).toBe('number')
  })

  it('a sum past 2^53 minor units keeps every digit in the JSON text (a double would round it)', () => {
    const sum = 20_000n * 999_999_999_999_999n - 1n
    const text = JSON.stringify({ a: jsonAmount(sum, 'USD') })
    expect(text).toBe(`{"a":${formatMoney(sum, 'USD')}}`)
    expect(text).not.toBe(JSON.stringify({ a: Number(formatMoney(sum, 'USD')) }))
  })

  it('jsonAmountOf reads a summary’s decimal text; text that is no amount stays text', () => {
    expect(jsonAmountOf('-98.76', 'USD')).toBe(-98.76)
    expect(jsonAmountOf('1250.50', 'EUR')).toBe(1250.5)
    expect(jsonAmountOf('7', 'JPY')).toBe(7)
    expect(jsonAmountOf('1.2345', 'USD')).toBe('1.2345')
  })
})

describe('unconvertedNote', () => {
  it('names what a balance leaves out, per currency, and how to count it; nothing when nothing is left out', () => {
    expect(unconvertedNote({ name: 'Euro', currency_code: 'EUR' }, [])).toBeUndefined()
    expect(
      unconvertedNote({ name: 'Euro', currency_code: 'EUR' }, [
        { currency_code: 'GBP', count: 2, amount: -1250 },
        { currency_code: 'JPY', count: 1, amount: 500 },
      ]),
    ).toBe(
      'the balance of "Euro" leaves out 2 transactions in GBP (-1,250.00 GBP), 1 transaction in JPY (500 JPY): they have no exchange rate into EUR, the account\'s currency; to count one, give its amount in EUR (tx update ID --amount ... --currency EUR)',
    )
  })
})

describe('amountTotal (the footer of a transaction table)', () => {
  it('sums in minor units: 0.10 + 0.20 is 0.30, not 0.30000000000000004', () => {
    expect(amountTotal([tx(0.1), tx(0.2)])).toEqual(['', '', 'total of 2', '0.30 USD', '', '', ''])
    const many = Array.from({ length: 1000 }, () => tx(0.01))
    expect(amountTotal(many)?.[3]).toBe('10.00 USD')
    expect(amountTotal([tx(1234567.89), tx(-0.89), tx(-1234567)])?.[3]).toBe('0.00 USD')
  })

  it('sums past 2^53 minor units exactly (each amount is below it, the total is not)', () => {
    // The largest amount the service takes (15 digits of cents), ten times: past Number.MAX_SAFE_INTEGER cents.
    expect(amountTotal(Array.from({ length: 10 }, () => tx(9999999999999.99)))?.[3]).toBe('99,999,999,999,999.90 USD')
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

describe('the locale of amounts for people', () => {
  it('reads --locale, else LC_ALL, LC_NUMERIC, LANG; C and POSIX are en-US', () => {
    expect(localeTag('de_DE.UTF-8')).toBe('de-DE')
    expect(localeTag('fr_FR@euro')).toBe('fr-FR')
    expect(localeTag('C.UTF-8')).toBeUndefined()
    expect(localeTag('POSIX')).toBeUndefined()
    expect(() => setMoneyLocale('not a locale!', {})).toThrow(/--locale/)
    setMoneyLocale(undefined, { LANG: 'de_DE.UTF-8', LC_ALL: '' })
    expect(formatMoney(-123456789n, 'EUR', { group: true, code: true })).toBe('-1.234.567,89 EUR')
    setMoneyLocale(undefined, { LC_ALL: 'C' })
    expect(formatMoney(-123456789n, 'EUR', { group: true, code: true })).toBe('-1,234,567.89 EUR')
  })

  it('groups every digit exactly, past 2^53 minor units, with the currency’s decimals', () => {
    try {
      setMoneyLocale('de-DE', {})
      expect(formatMoney(9223372036854775807n, 'USD', { group: true })).toBe('92.233.720.368.547.758,07')
      expect(formatMoney(1234567n, 'JPY', { group: true, code: true })).toBe('1.234.567 JPY')
      expect(formatMoney(-1234567n, 'KWD', { group: true, code: true })).toBe('-1.234,567 KWD')
      setMoneyLocale('en-IN', {})
      expect(formatMoney(123456780n, 'INR', { group: true })).toBe('12,34,567.80')
      // Plain (csv, JSON, tab-separated rows): never grouped, whatever the locale.
      expect(formatMoney(123456780n, 'INR')).toBe('1234567.80')
    } finally {
      setMoneyLocale(undefined, {})
    }
  })
})

describe('en-US grouped without Intl', () => {
  it('writes what Intl.NumberFormat writes for en-US, any amount and number of decimals', () => {
    const intl = (text: string, exponent: number) =>
      new Intl.NumberFormat('en-US', { minimumFractionDigits: exponent, maximumFractionDigits: exponent, useGrouping: true }).format(
        text as unknown as number,
      )
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0, 2, 3), (minor, exponent) => {
        const text = formatMinor(minor, exponent)
        expect(groupedEnUs(text)).toBe(intl(text, exponent))
      }),
      { numRuns: 2000 },
    )
    for (const minor of [0n, -1n, 999n, 1000n, -100000n, 99999n, 100000n, 9223372036854775807n])
      for (const exponent of [0, 2, 3]) expect(groupedEnUs(formatMinor(minor, exponent))).toBe(intl(formatMinor(minor, exponent), exponent))
  })

  it('asks Intl for the locale of LANG only when an amount is grouped, and never for en-US', () => {
    const asked = vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf')
    try {
      setMoneyLocale(undefined, { LANG: 'en_US.UTF-8' })
      expect(formatMoney(-123456789n, 'USD', { group: true })).toBe('-1,234,567.89')
      setMoneyLocale(undefined, { LANG: 'de_DE.UTF-8' })
      expect(formatMoney(-123456789n, 'USD')).toBe('-1234567.89')
      expect(asked).not.toHaveBeenCalled()
      expect(formatMoney(-123456789n, 'USD', { group: true })).toBe('-1.234.567,89')
      expect(asked).toHaveBeenCalledTimes(1)
    } finally {
      asked.mockRestore()
      setMoneyLocale(undefined, {})
    }
  })
})
