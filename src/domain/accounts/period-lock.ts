/**
 * Period locks (docs/closing.md): a company's lock date is the last day of its last closed month;
 * no write may change a transaction dated on or before it. The rule lives here, with companies, so
 * that transactions, statements and rates (all above accounts) can apply it.
 */
import type { Kysely } from 'kysely'
import type { Db } from '../../store/schema.js'
import { AppError } from '../../kernel/errors.js'
import { daysInMonth } from '../../kernel/vocabulary.js'

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/** Whether `s` is a month written YYYY-MM. */
export function isMonth(s: string): boolean {
  return MONTH.test(s)
}

/** The last day of a month YYYY-MM, as YYYY-MM-DD. */
export function monthEnd(month: string): string {
  const m = MONTH.exec(month)
  if (!m)
    throw new AppError('validation_error', `month: must be written YYYY-MM, not "${month}"`, {
      details: [{ path: 'month', message: 'must be written YYYY-MM' }],
    })
  const days = daysInMonth(Number(m[1]), Number(m[2]))
  return `${month}-${String(days).padStart(2, '0')}`
}

/** The first day of a month YYYY-MM. */
export function monthStart(month: string): string {
  monthEnd(month)
  return `${month}-01`
}

/** The month before a month YYYY-MM. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number)
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
}

/** The month a date YYYY-MM-DD (or a timestamp) is in. */
export function monthOf(date: string): string {
  return date.slice(0, 7)
}

/** The company's lock date, or null when no month is closed. */
export async function lockDateOf(db: Kysely<Db>, companyId: string): Promise<string | null> {
  const row = await db.selectFrom('companies').select('lock_date').where('id', '=', companyId).executeTakeFirst()
  return row?.lock_date ?? null
}

/** Whether a transaction dated `date` is in a closed period. */
export function isLocked(lockDate: string | null, date: string): boolean {
  return lockDate !== null && date <= lockDate
}

/**
 * The 409 of a write refused by the lock: it names the lock date and the month to reopen. `what`
 * says which transaction or date (`transaction 0191... (dated 2026-10-03)`, `a transaction dated ...`);
 * `path` is the request field that brought the date, or 'id' for a stored transaction's own date.
 */
export function periodLocked(lockDate: string, date: string, what: string, path = 'transaction_date'): AppError {
  const message = `${what} is in a closed period: the lock date is ${lockDate} (finctl close reopen ${monthOf(date)} --reason TEXT reopens it)`
  // path 'id': the stored row's own date, which the request did not give (no flag to name).
  const detail =
    path === 'id' ? `dated ${date}, on or before the lock date ${lockDate}` : `${date} is on or before the lock date ${lockDate}`
  return new AppError('period_locked', message, { details: [{ path, message: detail }] })
}

/** Throw period_locked when `date` is in a closed period. */
export function checkUnlocked(lockDate: string | null, date: string, what: string, path?: string): void {
  if (lockDate !== null && date <= lockDate) throw periodLocked(lockDate, date, what, path)
}
