/** What `export check` reports of a file, and the exact amounts its checkers add up. */
export interface Problem {
  /** 1-based; 0 for the file as a whole. */
  line: number
  message: string
}

export interface CheckReport {
  format: 'datev' | 'sie4' | 'saft-no'
  problems: Problem[]
  /** What was checked, for the summary ("header", "field lengths", "XSD ..."). */
  checks: string[]
  /** Rows (bookings, vouchers, transactions) read. */
  rows: number
  /** Problems found beyond the KEPT_PROBLEMS listed. */
  more?: number
}

/** At most this many problems are kept (the count goes on): a broken file of a million rows stays readable. */
export const KEPT_PROBLEMS = 1000

export class Problems {
  readonly list: Problem[] = []
  count = 0
  add(line: number, message: string): void {
    this.count++
    if (this.list.length < KEPT_PROBLEMS) this.list.push({ line, message })
  }
}

/** Exact decimal text with at most `places` decimals -> integer units of 10^-places; undefined when it is not one. */
export function scaled(text: string, places: number, mark = '.'): bigint | undefined {
  const m = new RegExp(`^(-?)(\\d+)(?:\\${mark}(\\d{1,${places}}))?$`).exec(text.trim())
  if (!m) return undefined
  const v = BigInt(m[2] + (m[3] ?? '').padEnd(places, '0'))
  return m[1] ? -v : v
}

export function shownUnits(v: bigint, places: number): string {
  const neg = v < 0n
  const s = (neg ? -v : v).toString().padStart(places + 1, '0')
  return `${neg ? '-' : ''}${s.slice(0, -places)}.${s.slice(-places)}`
}
