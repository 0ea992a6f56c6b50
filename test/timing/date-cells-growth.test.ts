/**
 * A hostile date cell costs time in proportion to its length (src/import/dates.ts): 4x the length at
 * most 8x this thread's processor time (test/helpers/growth.ts). What each cell reads as:
 * test/import/dates.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { DateDetector, formatFromFlag, looksLikeDate, parseDate, readsAsDate } from '../../src/import/dates.js'
import { growth } from '../helpers/growth.js'

const read = (flag: string, text: string) => parseDate(text, formatFromFlag(flag))

describe('a hostile date cell costs time in proportion to its length', () => {
  const work = (text: string) => {
    const d = new DateDetector()
    d.add(text)
    d.decide()
    return [looksLikeDate(text), readsAsDate(text), read('DD-MMM-YYYY', text), read('MMM D, YYYY', text), read('%Y%m%d', text)]
  }
  const none = [expect.any(Boolean), false, null, null, null]
  // n: the smaller cell takes about 30 ms here, many of the processor clock's 4 ms ticks.
  it.each([
    ['a long month name', 8_000_000, (n: number) => `05-${'a'.repeat(n)}-2024`, none],
    ['a long word first', 8_000_000, (n: number) => `${'é'.repeat(n)} 5, 2024`, none],
    ['long digits', 1_000_000, (n: number) => `${'1'.repeat(n)}-Jan-2024`, none],
    // Any run of spaces and punctuation is a separator: a date still.
    ['long separators', 250_000, (n: number) => `05${' .'.repeat(n)}Jan 2024`, [true, true, '2024-01-05', null, null]],
  ])('%s: 4x the length costs at most 8x the time', async (_, n, make, reads) => {
    const [small, large] = [make(n), make(4 * n)]
    const g = await growth(
      () => work(small),
      () => work(large),
      {
        bound: 8,
        each: (a, b) => {
          expect(a).toEqual(reads)
          expect(b).toEqual(reads)
        },
      },
    )
    expect(g.growth, g.text).toBeLessThan(8)
  })
})
