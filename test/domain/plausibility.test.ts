/** The plausibility rules of transactions: the date window and amounts of 0 (domain/transactions/plausibility.ts). */
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { DEFAULT_DATE_WINDOW, checkPlausible, latestDate, parseDateWindow } from '../../src/domain/transactions/plausibility.js'

const NOW = new Date('2026-11-23T10:00:00Z')

function refusal(entry: Parameters<typeof checkPlausible>[0], window = DEFAULT_DATE_WINDOW, now = NOW): AppError | undefined {
  try {
    checkPlausible(entry, window, now)
    return undefined
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
}

describe('the date window', () => {
  it('reads the earliest date and how far ahead of today', () => {
    expect(parseDateWindow('1970-01-01..+1y')).toEqual({ earliest: '1970-01-01', ahead: { years: 1, months: 0, days: 0 } })
    expect(parseDateWindow(' 2000-02-29..+6m ')).toEqual({ earliest: '2000-02-29', ahead: { years: 0, months: 6, days: 0 } })
    expect(parseDateWindow('1900-01-01..+30d').ahead.days).toBe(30)
    for (const bad of ['', 'bogus', '1970-01-01', '1970-01-01..1y', '1970-01-01..+1w', '1970-13-01..+1y', '70-01-01..+1y']) {
      expect(() => parseDateWindow(bad), bad).toThrow(/must look like 1970-01-01\.\.\+1y/)
    }
  })

  it('ends a year (or the given span) after today, in UTC', () => {
    expect(latestDate(DEFAULT_DATE_WINDOW, NOW)).toBe('2027-11-23')
    expect(latestDate(parseDateWindow('1970-01-01..+30d'), NOW)).toBe('2026-12-23')
    expect(latestDate(parseDateWindow('1970-01-01..+6m'), NOW)).toBe('2027-05-23')
    // 23:30 in New York is already tomorrow in UTC: the window follows UTC, as dates of the API do.
    expect(latestDate(DEFAULT_DATE_WINDOW, new Date('2026-12-31T23:30:00Z'))).toBe('2027-12-31')
  })

  it('refuses dates before the earliest or after the latest, naming the field, unless forced', () => {
    expect(refusal({ transaction_date: '1970-01-01', amountMinor: 1 })).toBeUndefined()
    expect(refusal({ transaction_date: '2027-11-23', amountMinor: 1 })).toBeUndefined()
    const early = refusal({ transaction_date: '1969-12-31', amountMinor: 1 })
    expect(early?.details).toEqual([
      {
        path: 'transaction_date',
        message: expect.stringMatching(/^is 1969-12-31, outside the dates this service accepts \(1970-01-01 to 2027-11-23\)/),
      },
    ])
    expect(refusal({ transaction_date: '2027-11-24', amountMinor: 1 })?.details?.[0].path).toBe('transaction_date')
    expect(refusal({ transaction_date: '2026-01-01', posted_date: '9999-12-31', amountMinor: 1 })?.details?.[0].path).toBe('posted_date')
    expect(refusal({ transaction_date: '9999-12-31', posted_date: '1900-01-01', amountMinor: 0, force: true })).toBeUndefined()
  })

  it('refuses an amount of 0 unless forced; any other amount passes', () => {
    expect(refusal({ amountMinor: 0 })?.details).toEqual([
      { path: 'amount', message: expect.stringMatching(/^is 0, which moves no money/) },
    ])
    expect(refusal({ amountMinor: -1 })).toBeUndefined()
    expect(refusal({ amountMinor: 1 })).toBeUndefined()
    expect(refusal({})).toBeUndefined()
    expect(refusal({ amountMinor: 0, force: true })).toBeUndefined()
  })
})
