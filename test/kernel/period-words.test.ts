import { describe, expect, it } from 'vitest'
import { PERIOD_FORMS, parsePeriod } from '../../src/kernel/period-words.js'

const at = (iso: string) => new Date(`${iso}T15:30:00Z`)
const range = (text: string, now: string) => parsePeriod(text, at(now))?.range

describe('parsePeriod', () => {
  it('a whole date is itself and not relative; impossible dates are no period', () => {
    expect(parsePeriod('2026-10-05', at('2026-11-25'))).toEqual({ range: { from: '2026-10-05', to: '2026-10-05' }, relative: false })
    expect(parsePeriod('2028-02-29', at('2026-11-25'))?.range.from).toBe('2028-02-29')
    for (const bad of [
      '2026-02-29',
      '2026-13',
      '2026-00',
      '2026-Q5',
      '2026-Q0',
      '0000',
      '0d',
      '-3d',
      'last-fortnight',
      '',
      '26-10',
      '2026-1',
    ])
      expect(parsePeriod(bad, at('2026-11-25')), bad).toBeUndefined()
  })

  it('months, quarters and years: their first and last day, leap years included', () => {
    expect(range('2026-10', '2026-11-25')).toEqual({ from: '2026-10-01', to: '2026-10-31' })
    expect(range('2024-02', '2026-11-25')).toEqual({ from: '2024-02-01', to: '2024-02-29' })
    expect(range('2100-02', '2026-11-25')).toEqual({ from: '2100-02-01', to: '2100-02-28' })
    expect(range('2000-02', '2026-11-25')).toEqual({ from: '2000-02-01', to: '2000-02-29' })
    expect(range('2026-12', '2026-11-25')).toEqual({ from: '2026-12-01', to: '2026-12-31' })
    expect(range('2026-Q1', '2026-11-25')).toEqual({ from: '2026-01-01', to: '2026-03-31' })
    expect(range('2026-q3', '2026-11-25')).toEqual({ from: '2026-07-01', to: '2026-09-30' })
    expect(range('2026-Q4', '2026-11-25')).toEqual({ from: '2026-10-01', to: '2026-12-31' })
    expect(range('2026', '2026-11-25')).toEqual({ from: '2026-01-01', to: '2026-12-31' })
    expect(range('0099', '2026-11-25')).toEqual({ from: '0099-01-01', to: '0099-12-31' })
  })

  it('the last N days, weeks, months and years end today, today included', () => {
    expect(range('1d', '2026-11-25')).toEqual({ from: '2026-11-25', to: '2026-11-25' })
    expect(range('30d', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' })
    expect(range('30d', '2024-03-01')).toEqual({ from: '2024-02-01', to: '2024-03-01' })
    expect(range('2w', '2026-01-03')).toEqual({ from: '2025-12-21', to: '2026-01-03' })
    expect(range('3m', '2026-11-25')).toEqual({ from: '2026-08-26', to: '2026-11-25' })
    // The shorter month's last day, then the day after: a month back from 31 March.
    expect(range('1m', '2026-03-31')).toEqual({ from: '2026-03-01', to: '2026-03-31' })
    expect(range('1m', '2024-03-31')).toEqual({ from: '2024-03-01', to: '2024-03-31' })
    expect(range('3m', '2026-05-31')).toEqual({ from: '2026-03-01', to: '2026-05-31' })
    expect(range('1m', '2026-01-15')).toEqual({ from: '2025-12-16', to: '2026-01-15' })
    expect(range('1y', '2028-02-29')).toEqual({ from: '2027-03-01', to: '2028-02-29' })
    expect(range('1y', '2026-12-31')).toEqual({ from: '2026-01-01', to: '2026-12-31' })
  })

  it('named periods at month, quarter and year ends', () => {
    expect(range('today', '2026-12-31')).toEqual({ from: '2026-12-31', to: '2026-12-31' })
    expect(range('yesterday', '2026-01-01')).toEqual({ from: '2025-12-31', to: '2025-12-31' })
    expect(range('yesterday', '2024-03-01')).toEqual({ from: '2024-02-29', to: '2024-02-29' })
    expect(range('last-month', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' })
    expect(range('last-month', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' })
    expect(range('this-month', '2026-02-28')).toEqual({ from: '2026-02-01', to: '2026-02-28' })
    expect(range('this-quarter', '2026-11-25')).toEqual({ from: '2026-10-01', to: '2026-12-31' })
    expect(range('this-quarter', '2026-03-31')).toEqual({ from: '2026-01-01', to: '2026-03-31' })
    expect(range('last-quarter', '2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' })
    expect(range('this-year', '2026-06-01')).toEqual({ from: '2026-01-01', to: '2026-12-31' })
    expect(range('last-year', '2026-01-01')).toEqual({ from: '2025-01-01', to: '2025-12-31' })
    expect(range('ytd', '2026-11-25')).toEqual({ from: '2026-01-01', to: '2026-11-25' })
    expect(range('ytd', '2026-01-01')).toEqual({ from: '2026-01-01', to: '2026-01-01' })
    expect(range('mtd', '2024-02-29')).toEqual({ from: '2024-02-01', to: '2024-02-29' })
    expect(range('qtd', '2026-05-20')).toEqual({ from: '2026-04-01', to: '2026-05-20' })
    // 2026-11-25 is a Wednesday; 2027-01-01 a Friday, its week starting in 2026.
    expect(range('this-week', '2026-11-25')).toEqual({ from: '2026-11-23', to: '2026-11-29' })
    expect(range('last-week', '2027-01-01')).toEqual({ from: '2026-12-21', to: '2026-12-27' })
    expect(range('this-week', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-29' })
    expect(range('this-week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' })
    expect(parsePeriod(' Last-Month ', at('2026-11-25'))?.relative).toBe(true)
  })

  it('every form the usage error lists is one it takes', () => {
    for (const [forms] of PERIOD_FORMS)
      for (const form of forms.split(', ')) expect(parsePeriod(form, at('2026-11-25')), form).toBeDefined()
  })
})
