/** The period lock's rule: months, their last days, and which dates a lock date refuses. */
import { describe, expect, it } from 'vitest'
import { checkUnlocked, isLocked, isMonth, monthEnd, previousMonth } from '../../src/domain/accounts/period-lock.js'
import { lastFullMonth } from '../../src/domain/closing/status.js'
import { AppError } from '../../src/kernel/errors.js'

describe('period lock', () => {
  it("knows a month's last day, leap years included, and the month before", () => {
    expect(monthEnd('2026-10')).toBe('2026-10-31')
    expect(monthEnd('2026-11')).toBe('2026-11-30')
    expect(monthEnd('2028-02')).toBe('2028-02-29')
    expect(monthEnd('2100-02')).toBe('2100-02-28')
    expect(previousMonth('2026-01')).toBe('2025-12')
    expect(previousMonth('2026-10')).toBe('2026-09')
    expect(lastFullMonth(new Date('2027-01-01T00:30:00Z'))).toBe('2026-12')
    expect(isMonth('2026-13')).toBe(false)
    expect(() => monthEnd('2026-1')).toThrow(AppError)
  })

  it('refuses a date on or before the lock date, naming it and the month to reopen', () => {
    expect(isLocked(null, '1999-01-01')).toBe(false)
    expect(isLocked('2026-10-31', '2026-10-31')).toBe(true)
    expect(isLocked('2026-10-31', '2026-11-01')).toBe(false)
    expect(() => checkUnlocked('2026-10-31', '2026-11-01', 'x')).not.toThrow()
    let e: unknown
    try {
      checkUnlocked('2026-10-31', '2026-09-15', 'a transaction dated 2026-09-15')
    } catch (err) {
      e = err
    }
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).code).toBe('period_locked')
    expect((e as AppError).status).toBe(409)
    expect((e as AppError).message).toContain('the lock date is 2026-10-31')
    expect((e as AppError).message).toContain('close reopen 2026-09')
    expect((e as AppError).details).toEqual([{ path: 'transaction_date', message: '2026-09-15 is on or before the lock date 2026-10-31' }])
  })
})
