/**
 * The calendar checks are arithmetic (no Date per row): they must agree with JavaScript's Date,
 * which they replaced, on every day of every year and on text that is nearly a date.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDate } from '../../src/import/dates.js'
import { daysInMonth, isIsoDate } from '../../src/kernel/vocabulary.js'

function byDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

const pad = (n: number, w: number) => String(n).padStart(w, '0')

describe('isIsoDate', () => {
  it('agrees with Date on every (year, month, day) with day 0 to 32', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const s = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`
        expect(isIsoDate(s)).toBe(byDate(s))
      }),
      { numRuns: 20_000 },
    )
  })

  it('knows leap years and refuses near-dates', () => {
    expect(['2024-02-29', '2000-02-29', '1999-12-31', '0000-01-01'].map(isIsoDate)).toEqual([true, true, true, true])
    for (const s of [
      '2023-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '2026/01/01',
      '2026-01-01 ',
      ' 2026-01-01',
      '2026-01-0a',
      '２０２６-01-01',
      '',
    ]) {
      expect(isIsoDate(s), s).toBe(false)
      expect(byDate(s), s).toBe(false)
    }
  })

  it('agrees with Date on arbitrary ten-character text', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9-]{10}$/), (s) => {
        expect(isIsoDate(s)).toBe(byDate(s))
      }),
      { numRuns: 5_000 },
    )
  })
})

describe('daysInMonth and parseDate', () => {
  it('match Date for every month from 1900 to 2200', () => {
    for (let y = 1900; y <= 2200; y++) {
      for (let m = 1; m <= 12; m++) expect(daysInMonth(y, m)).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate())
    }
  })

  it('reads a day in each order as Date does, and refuses impossible days', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2200 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const real = new Date(Date.UTC(y, m - 1, d)).getUTCMonth() === m - 1
        const want = real ? `${y}-${pad(m, 2)}-${pad(d, 2)}` : null
        expect(parseDate(`${y}-${m}-${d}`, 'ymd')).toBe(want)
        expect(parseDate(`${pad(d, 2)}.${pad(m, 2)}.${y}`, 'dmy')).toBe(want)
        expect(parseDate(`${m}/${d}/${y}`, 'mdy')).toBe(want)
      }),
      { numRuns: 5_000 },
    )
  })
})
