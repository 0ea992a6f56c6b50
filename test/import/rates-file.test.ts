/** Rates files: the ECB's eurofxref-hist.csv as published, and date,currency,rate. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectRatesFormat, parseRatesFile, RatesFileError } from '../../src/import/rates.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/rates')
const read = (name: string) => readFileSync(join(FIXTURES, name), 'utf8')

describe('ECB eurofxref-hist.csv', () => {
  const text = read('ecb-eurofxref-hist-sample-na-trailing-comma.csv')

  it('is told by its header: Date then currency columns, a trailing comma', () => {
    expect(detectRatesFormat(text)).toBe('ecb')
  })

  it('reads each day, rates per 1 EUR, leaving out N/A cells and the empty column of the trailing comma', () => {
    const r = parseRatesFile(text)
    if (r.format !== 'ecb') throw new Error('not ecb')
    expect(r.errors).toEqual([])
    expect(r.days.map((d) => d.date)).toEqual(['2024-01-05', '2024-01-04', '2014-12-31', '2007-12-31'])
    const first = r.days[0].perEur
    expect(first.get('USD')).toBe('1.0921')
    expect(first.get('JPY')).toBe('158.41')
    expect(first.get('IDR')).toBe('16960.62')
    expect(first.has('CYP')).toBe(false)
    expect(first.has('LTL')).toBe(false)
    // The litas of 2014 and the Cyprus pound of 2007: historic codes the history covers
    expect(r.days[2].perEur.get('LTL')).toBe('3.4528')
    expect(r.days[3].perEur.get('CYP')).toBe('0.585274')
    expect(r.days[3].perEur.get('EEK')).toBe('15.6466')
    // Cells of N/A counted as missing: 4 days x 41 columns = 164 cells
    const rates = r.days.reduce((n, d) => n + d.perEur.size, 0)
    expect(rates + r.missing).toBe(4 * 41)
    expect(r.missing).toBeGreaterThan(0)
  })

  it('a bad cell is an error naming its line and currency; an unknown column a note', () => {
    const r = parseRatesFile('Date,USD,QQQ,\n2024-01-05,1.09x,3,\n2024-01-04,1.0953,2,\n')
    expect(r.errors).toEqual(['line 2: USD "1.09x" is not a positive decimal rate'])
    expect(r.notes).toEqual(['column QQQ: not an ISO 4217 currency code, left out'])
  })
})

describe('plain date,currency,rate', () => {
  it('reads rates to the base currency, any column order', () => {
    const r = parseRatesFile(read('plain-date-currency-rate.csv'))
    expect(r.format).toBe('plain')
    if (r.format !== 'plain') return
    expect(r.rates.map(({ date, currency, rate }) => [date, currency, rate])).toEqual([
      ['2026-01-02', 'USD', '0.9'],
      ['2026-01-05', 'USD', '0.91'],
      ['2026-01-02', 'JPY', '0.0061'],
    ])
    const swapped = parseRatesFile('rate;currency;date\n1.5;chf;2026-02-02\n', 'plain')
    expect(swapped.format === 'plain' && swapped.rates[0]).toMatchObject({ currency: 'CHF', rate: '1.5', date: '2026-02-02' })
  })

  it('reads quoted fields as CSV: a comma inside quotes stays in its cell, and lines keep their numbers', () => {
    const r = parseRatesFile(
      '"date","currency","rate","note"\r\n\r\n"2026-02-02","CHF","1.5","bank, morning"\r\n2026-02-03,CHF,oops,x\r\n',
      'plain',
    )
    expect(r.format === 'plain' && r.rates.map(({ line, currency, rate }) => [line, currency, rate])).toEqual([[3, 'CHF', '1.5']])
    expect(r.errors).toEqual(['line 4: rate "oops" is not a positive decimal number'])
  })

  it('lists every bad line', () => {
    const r = parseRatesFile(read('plain-bad-lines-refused-whole.csv'))
    expect(r.errors).toEqual([
      'line 3: date "2026-13-01" is not YYYY-MM-DD',
      'line 4: currency "XYZ" is not an ISO 4217 currency code',
      'line 5: rate "-1" is not a positive decimal number',
    ])
  })

  it('neither layout, or no rate at all: an error that names the flag', () => {
    expect(() => parseRatesFile('a,b,c\n1,2,3\n')).toThrow(RatesFileError)
    expect(() => parseRatesFile('a,b,c\n1,2,3\n')).toThrow(/--format ecb or --format plain/)
    expect(() => parseRatesFile('date,currency,rate\n')).toThrow(/holds no rate/)
  })
})
