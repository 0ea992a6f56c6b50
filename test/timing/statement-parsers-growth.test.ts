/**
 * Every statement parser (and the CSV path of an upload) runs in time linear in its input: each
 * generated hostile file (hostile.ts: deep nesting, many distinct tags, one huge line, many tiny
 * records) parsed at 1x and at 4x its size, the 4x file may cost at most 8 times the 1x one (a
 * linear parser costs about 4 times, a quadratic one 16), measured by test/helpers/growth.ts: this
 * thread's processor time, the least of five interleaved runs, so that other processes on a busy
 * machine do not count. docs/parser-limits.md records the times.
 */
import { describe, expect, it } from 'vitest'
import { parseUpload } from '../../src/domain/statements/parse.js'
import { growth } from '../helpers/growth.js'
import { HOSTILE, type Hostile } from '../import/statements/hostile.js'

const BOUND = 8

async function parse(h: Hostile, bytes: Uint8Array): Promise<string> {
  try {
    const r = await parseUpload(bytes, { fileName: `hostile.${h.format}`, format: h.format, currency: 'EUR', exponent: 2 }, {})
    return `${r.parts.reduce((a, p) => a + p.lines.length, 0)} lines`
  } catch (e) {
    if ((e as Error).name !== 'StatementFileError') throw e
    return 'refused'
  }
}

describe.each(HOSTILE)('$name', (h) => {
  it('4x the size costs at most 8x the time', async () => {
    const encode = (n: number) => new TextEncoder().encode(h.make(n))
    const [small, large] = [encode(h.n), encode(4 * h.n)]
    expect(large.length / small.length).toBeGreaterThan(3.5)
    await parse(h, encode(10)) // the parsers loaded and compiled
    const g = await growth(
      () => parse(h, small),
      () => parse(h, large),
      // The same kind of outcome at both sizes: not a quick refusal of the larger file.
      { bound: BOUND, floorMs: 5, each: (a, b) => expect(b === 'refused').toBe(a === 'refused') },
    )
    expect(g.growth, `${g.text} at ${small.length} and ${large.length} bytes`).toBeLessThan(BOUND)
  })
})
