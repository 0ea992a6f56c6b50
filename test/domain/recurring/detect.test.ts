/**
 * Detection on made series: each interval found with its next date, a series with gaps and a missed
 * month, a changed amount, month ends (the 31st falling on the 28th, 29th, 30th), the last working
 * day; and noise that must not be found: random purchases, two payments a month, a stopped series.
 */
import { describe, expect, it } from 'vitest'
import { amountParts, DEFAULT_DETECT, detectSeries, type Occurrence } from '../../../src/domain/recurring/detect.js'
import { matchKey } from '../../../src/domain/recurring/normalize.js'
import { fromDay, slotAfter, slotDay, toDay } from '../../../src/domain/recurring/schedule.js'

const occ = (dates: string[], amount: number | ((i: number) => number) = -150_000): Occurrence[] =>
  dates.map((d, i) => ({ day: toDay(d), amount: typeof amount === 'number' ? amount : amount(i), ref: i }))
const opts = (end: string) => ({ ...DEFAULT_DETECT, historyEnd: toDay(end) })
const monthly = (day: number, months: number, from = '2025-01') =>
  Array.from({ length: months }, (_, i) => {
    const y = Number(from.slice(0, 4)) + Math.floor((Number(from.slice(5, 7)) - 1 + i) / 12)
    const m = ((Number(from.slice(5, 7)) - 1 + i) % 12) + 1
    const dim = new Date(Date.UTC(y, m, 0)).getUTCDate()
    return `${y}-${String(m).padStart(2, '0')}-${String(Math.min(day, dim)).padStart(2, '0')}`
  })
const one = (list: Occurrence[], end: string) => {
  const found = detectSeries(list, opts(end))
  expect(found).toHaveLength(1)
  return found[0]
}

describe('recurring detection', () => {
  it('a monthly rent on the 1st, a day late or early now and then: monthly, next the 1st', () => {
    const dates = monthly(1, 12).map((d, i) => (i % 4 === 1 ? fromDay(toDay(d) + 2) : i % 4 === 3 ? fromDay(toDay(d) - 1) : d))
    const s = one(occ(dates), '2025-12-20')
    expect(s.schedule.interval).toBe('monthly')
    expect(s.schedule.day).toBe(1)
    expect(fromDay(s.next)).toBe('2026-01-01')
    expect(s.typical).toBe(-150_000)
    expect(s.missed).toBe(0)
  })

  it('a series on the 31st falls on the 28th, 29th and 30th of shorter months', () => {
    for (const [from, end] of [
      ['2025-01', '2025-12-31'],
      ['2024-01', '2024-12-31'], // a leap year: the 29th of February
    ]) {
      const dates = monthly(31, 12, from)
      expect(dates).toContain(from.startsWith('2024') ? '2024-02-29' : '2025-02-28')
      expect(dates).toContain(`${from.slice(0, 4)}-04-30`)
      const s = one(occ(dates), end)
      expect(s.schedule).toMatchObject({ interval: 'monthly', day: 31 })
      expect(s.cost).toBe(0)
      expect(fromDay(s.next)).toBe(`${Number(from.slice(0, 4)) + 1}-01-31`)
      expect(fromDay(slotDay(s.schedule, 1))).toBe(from.startsWith('2024') ? '2024-02-29' : '2025-02-28')
    }
  })

  it('a series with gaps and one missed month is still found, its misses counted', () => {
    const dates = monthly(15, 12).filter((_, i) => i !== 4 && i !== 8)
    const s = one(occ(dates), '2025-12-20')
    expect(s.schedule.interval).toBe('monthly')
    expect(s.missed).toBe(2)
    // Missing the latest month too: still active (one slot passed), next is January.
    const late = one(occ(monthly(15, 11)), '2025-12-20')
    expect(fromDay(late.next)).toBe('2025-12-15')
  })

  it('a changed amount within the tolerance stays one series; the typical amount follows the latest', () => {
    const s = one(
      occ(monthly(3, 9), (i) => (i < 6 ? -150_000 : -160_000)),
      '2025-09-20',
    )
    expect(s.schedule.interval).toBe('monthly')
    expect(s.occurrences).toHaveLength(9)
    expect(s.typical).toBe(-160_000)
    // --exact: two parts; the older one has stopped, the newer has three payments.
    const exact = detectSeries(
      occ(monthly(3, 9), (i) => (i < 6 ? -150_000 : -160_000)),
      { ...opts('2025-09-20'), amountTolerance: 0 },
    )
    expect(exact.map((x) => [x.typical, x.occurrences.length])).toEqual([[-160_000, 3]])
  })

  it('weekly, every two weeks, quarterly and yearly', () => {
    const weeks = (start: string, n: number, step: number) => Array.from({ length: n }, (_, i) => fromDay(toDay(start) + i * step))
    expect(one(occ(weeks('2025-01-06', 10, 7)), '2025-03-12').schedule.interval).toBe('weekly')
    expect(one(occ(weeks('2025-01-10', 8, 14)), '2025-04-20').schedule.interval).toBe('biweekly')
    const q = one(occ(['2024-01-15', '2024-04-15', '2024-07-16', '2024-10-14', '2025-01-15']), '2025-02-01')
    expect(q.schedule.interval).toBe('quarterly')
    expect(fromDay(q.next)).toBe('2025-04-15')
    const y = one(occ(['2022-03-01', '2023-03-02', '2024-02-29', '2025-03-01']), '2025-06-01')
    expect(y.schedule.interval).toBe('yearly')
    expect(fromDay(y.next)).toBe('2026-03-01')
  })

  it('a salary on the last working day of the month is told from the month end', () => {
    // 2025: May 31 is a Saturday (paid Fri 30th), Aug 31 a Sunday (Fri 29th), Nov 30 a Sunday (Fri 28th).
    const dates = [
      '2025-03-31',
      '2025-04-30',
      '2025-05-30',
      '2025-06-30',
      '2025-07-31',
      '2025-08-29',
      '2025-09-30',
      '2025-10-31',
      '2025-11-28',
    ]
    const s = one(occ(dates, 500_000), '2025-12-10')
    expect(s.schedule.interval).toBe('last_working_day')
    expect(s.cost).toBe(0)
    expect(fromDay(s.next)).toBe('2025-12-31')
    expect(fromDay(slotAfter(s.schedule, toDay('2026-01-01')).day)).toBe('2026-01-30')
  })

  it('noise is not found: random purchases, twice a month, a stopped series, too few payments', () => {
    // A coffee shop every 2 to 5 days at random (a fixed seed), amounts of a few dollars.
    let x = 12345
    const rnd = () => {
      x = (x * 1103515245 + 12345) % 2 ** 31
      return x / 2 ** 31
    }
    const coffee: string[] = []
    for (let d = toDay('2025-01-01'); d < toDay('2025-07-01'); d += 2 + Math.floor(rnd() * 4)) coffee.push(fromDay(d))
    expect(
      detectSeries(
        occ(coffee, (i) => -(350 + ((i * 37) % 250))),
        opts('2025-07-01'),
      ),
    ).toEqual([])
    // Random days of random months, same amount.
    const scattered = ['2025-01-03', '2025-01-19', '2025-02-25', '2025-04-02', '2025-04-11', '2025-06-28', '2025-07-07']
    expect(detectSeries(occ(scattered, -5000), opts('2025-07-10'))).toEqual([])
    // Twice a month on no fixed day.
    const twice = monthly(5, 6).flatMap((d, i) => [d, fromDay(toDay(d) + 9 + (i % 3) * 4)])
    expect(detectSeries(occ(twice, -2000), opts('2025-07-01'))).toEqual([])
    // Stopped: monthly until March, the history runs to September.
    expect(detectSeries(occ(monthly(10, 3)), opts('2025-09-30'))).toEqual([])
    // Two payments are no series.
    expect(detectSeries(occ(monthly(10, 2)), opts('2025-02-20'))).toEqual([])
  })

  it('amounts split where a step passes the tolerance', () => {
    const parts = amountParts(
      occ(['2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04'], (i) => [-999, -1000, -1500, -1100][i]),
      10,
    )
    expect(parts.map((p) => p.map((o) => o.amount))).toEqual([[-999, -1000, -1100], [-1500]])
  })

  it('payees: the merchant, else the description without its changing words', () => {
    expect(matchKey('Landlord Ltd', 'whatever')).toBe('m:landlord ltd')
    expect(matchKey(null, 'NETFLIX.COM 866-579-7172 CA')).toBe(matchKey(null, 'Netflix.com 866-579-7173 ca'))
    expect(matchKey(null, 'SEPA RENT REF 2025/03 Landlord')).toBe(matchKey(null, 'SEPA RENT REF 2025/04 Landlord'))
    expect(matchKey(null, '12345 678')).toBe('d:')
  })
})
