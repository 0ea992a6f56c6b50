/**
 * Plausible entries: a transaction dated outside the service's date window (by default from
 * 1970-01-01 to a year after today) or of amount 0 is refused unless the request says `force: true`.
 * A typo such as 9999-12-31 would otherwise head every list for good, and a 0 moves no money.
 * Statement lines are the bank's own record and are not checked; nor is the 0 of a row imported
 * from a bank file (it carries `import_ref`): a card hold or a waived fee the bank booked.
 */
import { validation } from '../../kernel/errors.js'

export interface DateWindow {
  /** The earliest date accepted, YYYY-MM-DD. */
  earliest: string
  /** How far after today a date may be. */
  ahead: { years: number; months: number; days: number }
}

const WINDOW_TEXT = /^(\d{4}-\d{2}-\d{2})\.\.\+(\d{1,3})([ymd])$/

/** `1970-01-01..+1y`: the earliest date, then how far ahead of today (`+1y`, `+6m`, `+30d`). */
export function parseDateWindow(text: string): DateWindow {
  const m = WINDOW_TEXT.exec(text.trim())
  if (!m || Number.isNaN(Date.parse(`${m[1]}T00:00:00Z`))) {
    throw new Error(
      `the date window "${text}" must look like 1970-01-01..+1y (the earliest date, then how far after today: +1y, +6m or +30d)`,
    )
  }
  const n = Number(m[2])
  return { earliest: m[1], ahead: { years: m[3] === 'y' ? n : 0, months: m[3] === 'm' ? n : 0, days: m[3] === 'd' ? n : 0 } }
}

export const DEFAULT_DATE_WINDOW: DateWindow = parseDateWindow('1970-01-01..+1y')

/** The last answer of latestDate: a batch checks thousands of rows against one window at one `now`. */
let lastLatest: { w: DateWindow; ms: number; date: string } | undefined

/** The window's last date as of `now` (UTC). */
export function latestDate(w: DateWindow, now: Date): string {
  const ms = now.getTime()
  if (lastLatest?.w === w && lastLatest.ms === ms) return lastLatest.date
  const d = new Date(Date.UTC(now.getUTCFullYear() + w.ahead.years, now.getUTCMonth() + w.ahead.months, now.getUTCDate() + w.ahead.days))
  const date = d.toISOString().slice(0, 10)
  lastLatest = { w, ms, date }
  return date
}

/**
 * Throws a validation error naming the field when an entry is implausible and not forced. Dates
 * are YYYY-MM-DD (already validated), so they compare as text.
 */
export function checkPlausible(
  entry: { transaction_date?: string; posted_date?: string; amountMinor?: number; force?: boolean; bankRecord?: boolean },
  window: DateWindow,
  now: Date,
): void {
  if (entry.force) return
  const latest = latestDate(window, now)
  for (const field of ['transaction_date', 'posted_date'] as const) {
    const date = entry[field]
    if (date !== undefined && (date < window.earliest || date > latest)) {
      throw validation(
        field,
        `is ${date}, outside the dates this service accepts (${window.earliest} to ${latest}): check it, or give \`force\` to keep it`,
      )
    }
  }
  if (entry.amountMinor === 0 && !entry.bankRecord)
    throw validation('amount', 'is 0, which moves no money: check it, or give `force` to record it')
}
