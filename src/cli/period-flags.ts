/**
 * --from and --to as people say them (kernel/period-words.ts): --from takes the first day of the
 * period it names, --to the last; anything but a whole date is echoed on stderr as the days chosen.
 */
import { resolveRange } from '../domain/reports/periods.js'
import type { IO } from './io.js'
import { judgeRange, periodDay } from './flag-values.js'
import { note, type Printer } from './output.js'

export interface PeriodHost {
  io: IO
  printer: Pick<Printer, 'quiet'>
}

/** What a --from or --to flag's help says. */
export const FROM_HELP = 'first day: YYYY-MM-DD, or a period such as 2026-10, 2026-Q3, 30d, last-month, ytd (its first day)'
export const TO_HELP = 'last day: YYYY-MM-DD, or a period such as 2026-10, 2026-Q3, yesterday (its last day)'

export { periodDay } from './flag-values.js'

/**
 * --from and --to as dates. `fill` completes a range the command defaults (reports: the last 12
 * months); the days chosen go to stderr when a flag was not a whole date.
 */
export function periodFlags(
  host: PeriodHost,
  o: { from?: string; to?: string },
  fill?: (r: { from?: string; to?: string }) => { from: string; to: string },
): { from?: string; to?: string } {
  const now = host.io.now()
  const from = o.from === undefined ? undefined : periodDay(o.from, '--from', now)
  const to = o.to === undefined ? undefined : periodDay(o.to, '--to', now)
  // A period that ends before it starts (judged as the command is parsed too: flag-values.ts).
  judgeRange(o.from, o.to, now)
  let range: { from?: string; to?: string } = { from: from?.date, to: to?.date }
  if (fill) range = fill(range)
  if (from?.relative || to?.relative) {
    const text = range.from && range.to ? `${range.from} .. ${range.to}` : range.from ? `from ${range.from} on` : `up to ${range.to}`
    note(host.io, host.printer, `period: ${text}`)
  }
  return range
}

/**
 * A report's range as the service completes it (domain/reports/periods.ts): neither day, the last
 * 12 months; only --from, up to today; only --to, the 12 months ending with its month.
 */
export function reportRange(r: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  try {
    return resolveRange(r, now)
  } catch {
    // --from after the end: sent as it is, for the service's validation error.
    return { from: r.from as string, to: r.to ?? now.toISOString().slice(0, 10) }
  }
}
