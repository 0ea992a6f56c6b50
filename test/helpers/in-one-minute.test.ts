/** The rate-limit tests' `inOneMinute`: an attempt that a minute's edge cut is made again, from its start. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { inOneMinute } from './harness.js'

describe('inOneMinute', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('returns the first attempt when it began and ended in one minute', async () => {
    let t = 120_000 + 10_000
    vi.spyOn(Date, 'now').mockImplementation(() => t)
    const attempt = vi.fn(async () => {
      t += 40_000
      return 'first'
    })
    expect(await inOneMinute(attempt)).toBe('first')
    expect(attempt).toHaveBeenCalledTimes(1)
  })

  it("makes the attempt again when a minute's edge fell within it", async () => {
    let t = 120_000 + 55_000
    vi.spyOn(Date, 'now').mockImplementation(() => t)
    let n = 0
    const attempt = vi.fn(async () => {
      t += 10_000 // the first ends in the next minute; the second, begun at 0:05 of it, does not
      return ++n
    })
    expect(await inOneMinute(attempt)).toBe(2)
    expect(attempt).toHaveBeenCalledTimes(2)
  })

  it('gives the third attempt back as it is, however long each takes', async () => {
    let t = 0
    vi.spyOn(Date, 'now').mockImplementation(() => t)
    const attempt = vi.fn(async () => {
      t += 61_000
      return t
    })
    expect(await inOneMinute(attempt)).toBe(183_000)
    expect(attempt).toHaveBeenCalledTimes(3)
  })
})
