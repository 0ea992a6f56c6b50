/**
 * The import's pacing: a 429 asking for a minute or less is waited out; one asking for longer
 * (a key's daily allowance spent) stops the import with exit 7 and when to go on, unless --wait. A
 * database locked past the service's wait (503 database_busy) is tried again a few times, then the
 * import stops with that error rather than wait on without end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { exitCodeFor } from '../../src/cli/exit-codes.js'
import { AppError } from '../../src/kernel/errors.js'
import { BUSY_ROUNDS, LongWait, longWaitStop, Pacer } from '../../src/jobs/import/pacing.js'

const refused = (retryAfter: number) =>
  new AppError('rate_limited', 'rate limit of 10000 requests per day reached for this key', { retryAfter, requestId: 'req_1' })

/** A call refused once with `retryAfter`, then answered; the sleeps the pacer asked for. */
function once(retryAfter: number) {
  let calls = 0
  const slept: number[] = []
  return {
    slept,
    calls: () => calls,
    // The pacer waits until a time: the clock moves on by what it sleeps.
    sleep: async (ms: number) => {
      slept.push(ms)
      vi.setSystemTime(Date.now() + ms)
    },
    call: async () => {
      if (calls++ === 0) throw refused(retryAfter)
      return 'answered'
    },
  }
}

describe('Pacer and long waits', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }))
  afterEach(() => vi.useRealTimers())

  it('waits out a Retry-After of up to a minute and sends again', async () => {
    const c = once(60)
    expect(await new Pacer(c.sleep).call(c.call)).toBe('answered')
    expect(c.calls()).toBe(2)
    expect(c.slept.reduce((a, b) => a + b, 0)).toBeGreaterThan(59_000)
  })

  it('stops at a longer Retry-After: a rate_limited error (exit 7) saying when the service takes requests again', async () => {
    const c = once(59_920)
    const started = Date.now()
    const e = await new Pacer(c.sleep).call(c.call).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(LongWait)
    expect(c.slept).toEqual([])
    const wait = e as LongWait
    expect(exitCodeFor(wait.code)).toBe(7)
    expect(wait.retryAfter).toBe(59_920)
    expect(Math.abs(wait.until.getTime() - (started + 59_920_000))).toBeLessThan(5_000)
    expect(wait.message).toBe(
      `rate limit of 10000 requests per day reached for this key; the service takes requests again in 16 h 38 min (at ${wait.until.toISOString().replace('.000Z', 'Z')})`,
    )
    const stop = longWaitStop(wait, { created: 1200, already_imported: 30, on_statement: 0 })
    expect(stop.code).toBe('rate_limited')
    expect(stop.message).toBe(
      `${wait.message}. Stopped after 1200 rows created (30 were there already); the other rows were not sent. ` +
        `Run the same command again after ${wait.until.toISOString().replace('.000Z', 'Z')} (rows already imported are skipped), or add --wait to wait until then`,
    )
  })

  it('with --wait, waits however long it is asked to', async () => {
    const c = once(59_920)
    expect(await new Pacer(c.sleep, Number.POSITIVE_INFINITY).call(c.call)).toBe('answered')
    expect(c.slept.reduce((a, b) => a + b, 0)).toBeGreaterThan(59_900_000)
  })
})

const busy = () => new AppError('database_busy', 'the database x is locked by another process', { retryAfter: 0.05 })
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

describe('Pacer and a locked database', () => {
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
