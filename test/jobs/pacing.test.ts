/**
 * The import's pacer (src/jobs/import/pacing.ts): a 429 is waited out for as long as the service
 * asks; a database locked past the service's wait (503 database_busy) is tried again a few times,
 * then the import stops with that error rather than wait on without end.
 */
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/kernel/errors.js'
import { BUSY_ROUNDS, Pacer } from '../../src/jobs/import/pacing.js'

const busy = () => new AppError('database_busy', 'the database x is locked by another process', { retryAfter: 0.05 })
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

describe('Pacer', () => {
  it('sends again after a locked database, waiting its Retry-After, and answers what the call finally gives', async () => {
    const waits: number[] = []
    const pacer = new Pacer(async (ms) => {
      waits.push(ms)
      await sleep(ms)
    })
    let calls = 0
    const r = await pacer.call(async () => {
      if (++calls <= BUSY_ROUNDS) throw busy()
      return 'created'
    })
    expect(r).toBe('created')
    expect(calls).toBe(BUSY_ROUNDS + 1)
    // Each round waits out the 50 ms asked (a timer may wake a millisecond early and sleep the rest).
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(BUSY_ROUNDS * 50 - BUSY_ROUNDS)
  })

  it('stops with database_busy after its rounds, where a 429 is waited out for longer', async () => {
    const pacer = new Pacer(sleep)
    let calls = 0
    await expect(
      pacer.call(async () => {
        calls++
        throw busy()
      }),
    ).rejects.toMatchObject({ code: 'database_busy' })
    expect(calls).toBe(BUSY_ROUNDS + 1)
    let limited = 0
    const r = await pacer.call(async () => {
      if (++limited <= 2 * BUSY_ROUNDS) throw new AppError('rate_limited', 'slow down', { retryAfter: 0.05 })
      return 'done'
    })
    expect(r).toBe('done')
  })
})
