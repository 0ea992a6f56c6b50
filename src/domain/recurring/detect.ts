/**
 * Finding recurring series in one payee's payments (docs/forecast.md, "How detection decides").
 * The payments are split by amount first (within the amount tolerance of the next smaller one, or
 * equal with a tolerance of 0), then each part is tried against every interval: each payment must
 * fall within the date tolerance of its own slot (weekly ±1 day, every two weeks ±2, others the
 * tolerance asked, ±3 by default), no two in one slot, and at least three quarters of the slots
 * from the first to the last must be hit (a missed month or two is a gap, not the end). Of the
 * intervals that fit, the one whose slots the dates sit closest to wins. A series whose next two
 * slots have passed without a payment has stopped and is not reported.
 */
import {
  type Interval,
  INTERVALS,
  isMonthEnd,
  dayOfMonth,
  monthIndexOf,
  nearestSlot,
  type Schedule,
  slotAfter,
  slotDay,
} from './schedule.js'

export interface Occurrence {
  day: number
  /** Minor units, signed. */
  amount: number
  /** The caller's reference (a row's seq). */
  ref: number
}

export interface DetectOptions {
  /** Days a payment may be off its slot (monthly and longer). */
  dateTolerance: number
  /** Percent an amount may differ from the next smaller one in its series; 0: equal. */
  amountTolerance: number
  minOccurrences: number
  /** The last day of the history: series stopped before it are dropped. */
  historyEnd: number
}

export const DEFAULT_DETECT: Omit<DetectOptions, 'historyEnd'> = { dateTolerance: 3, amountTolerance: 10, minOccurrences: 3 }

export interface Series {
  schedule: Schedule
  occurrences: Occurrence[]
  /** Slots from the first payment to the last without one. */
  missed: number
  /** The median of the last three amounts. */
  typical: number
  last: number
  next: number
  /** Σ |day - slot| of the fit. */
  cost: number
  tolerance: number
}

function toleranceOf(interval: Interval, asked: number): number {
  if (interval === 'weekly') return Math.min(asked, 1)
  if (interval === 'biweekly') return Math.min(asked, 2)
  return asked
}

const absolute = (n: number) => (n < 0 ? -n : n)

/** Parts of the payments whose amounts are close: sorted by size, cut where a step exceeds the tolerance. */
export function amountParts(list: readonly Occurrence[], pct: number): Occurrence[][] {
  const sorted = [...list].sort((a, b) => absolute(a.amount) - absolute(b.amount) || a.day - b.day)
  const parts: Occurrence[][] = []
  let part: Occurrence[] = []
  let prev = -1
  for (const o of sorted) {
    const a = absolute(o.amount)
    // a > prev * (1 + pct/100), in integers
    const apart = pct === 0 ? a !== prev : a * 100 > prev * (100 + pct)
    if (part.length && apart) {
      parts.push(part)
      part = []
    }
    part.push(o)
    prev = a
  }
  if (part.length) parts.push(part)
  return parts.map((p) => p.sort((a, b) => a.day - b.day || a.ref - b.ref))
}

function mode(values: readonly number[]): number {
  const counts = new Map<number, number>()
  let best = values[0]
  let bestN = 0
  for (const v of values) {
    const n = (counts.get(v) ?? 0) + 1
    counts.set(v, n)
    if (n > bestN || (n === bestN && v > best)) {
      best = v
      bestN = n
    }
  }
  return best
}

/** The schedules worth trying for one interval (phases from the payments' own days). */
function schedulesFor(interval: Interval, days: readonly number[]): Schedule[] {
  const first = days[0]
  if (interval === 'weekly' || interval === 'biweekly') {
    const p = interval === 'weekly' ? 7 : 14
    const phase = mode(days.map((d) => (((d - first) % p) + p) % p))
    const anchor = first + (phase > p / 2 ? phase - p : phase)
    return [{ interval, anchor, day: null }]
  }
  if (interval === 'last_working_day') return [{ interval, anchor: first, day: null }]
  // A payment on the last day of a short month counts as the 31st: a series on the 31st (or 30th) holds.
  const day = mode(days.map((d) => (isMonthEnd(d) ? 31 : dayOfMonth(d))))
  const month0 = monthIndexOf(first)
  const step = interval === 'quarterly' ? 3 : interval === 'yearly' ? 12 : 1
  const out: Schedule[] = []
  for (const m of step === 1 ? [month0] : [month0 - 1, month0, month0 + 1]) {
    const y = Math.floor(m / 12)
    const anchor = Date.UTC(y, m % 12, 1) / 86_400_000
    out.push({ interval, anchor, day })
  }
  return out
}

function fitSchedule(s: Schedule, part: readonly Occurrence[], tol: number): { cost: number; first: number; last: number } | undefined {
  const used = new Set<number>()
  let cost = 0
  let first = 0
  let last = 0
  for (let i = 0; i < part.length; i++) {
    const { k, off } = nearestSlot(s, part[i].day)
    if (absolute(off) > tol || used.has(k)) return undefined
    used.add(k)
    cost += absolute(off)
    if (i === 0) first = k
    last = k
  }
  const span = last - first + 1
  if (part.length * 4 < span * 3) return undefined
  return { cost, first, last }
}

/** The series of one part of a payee's payments, or undefined when none fits or it has stopped. */
export function seriesOf(part: readonly Occurrence[], o: DetectOptions): Series | undefined {
  if (part.length < o.minOccurrences) return undefined
  const days = part.map((p) => p.day)
  let best: (Series & { order: number }) | undefined
  INTERVALS.forEach((interval, order) => {
    const tol = toleranceOf(interval, o.dateTolerance)
    for (const s of schedulesFor(interval, days)) {
      const f = fitSchedule(s, part, tol)
      if (!f) continue
      if (best && (best.cost < f.cost || (best.cost === f.cost && best.order <= order))) continue
      // Anchor the schedule on the series' first slot: the stored item's weeks and months count from it.
      const anchor = slotDay(s, f.first)
      const schedule: Schedule = { interval, anchor, day: s.day }
      const amounts = part.slice(-3).map((p) => p.amount)
      const typical = [...amounts].sort((a, b) => a - b)[Math.floor((amounts.length - 1) / 2)]
      best = {
        schedule,
        occurrences: [...part],
        missed: f.last - f.first + 1 - part.length,
        typical,
        last: part[part.length - 1].amount,
        next: slotDay(schedule, f.last - f.first + 1),
        cost: f.cost,
        tolerance: tol,
        order,
      }
    }
  })
  if (!best) return undefined
  // Stopped: the two slots after the last payment have passed (with the tolerance) without one.
  const second = slotAfter(best.schedule, best.next).day
  if (second + best.tolerance < o.historyEnd) return undefined
  const { order: _order, ...series } = best
  return series
}

/** Every series in one payee's payments (of one currency and direction). */
export function detectSeries(list: readonly Occurrence[], o: DetectOptions): Series[] {
  if (list.length < o.minOccurrences) return []
  const out: Series[] = []
  for (const part of amountParts(list, o.amountTolerance)) {
    const s = seriesOf(part, o)
    if (s) out.push(s)
  }
  return out
}
