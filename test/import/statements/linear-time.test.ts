/**
 * Every statement parser (and the CSV path of an upload) runs in time linear in its input: each
 * generated hostile file (hostile.ts: deep nesting, many distinct tags, one huge line, many tiny
 * records) parsed at 1x and at 4x its size, the 4x file may cost at most 8 times the 1x one (a
 * linear parser costs about 4 times, a quadratic one 16). The measure is this thread's processor
 * time, the least of five interleaved runs, so that other processes on a busy machine do not count.
 * docs/parser-limits.md records the times.
 */
import { describe, expect, it } from 'vitest'
import { parseUpload } from '../../../src/domain/statements/parse.js'
import { HOSTILE, type Hostile } from './hostile.js'

const BOUND = 8
/** A garbage collection can land in any one run of the larger file: the least of five is the parse. */
const RUNS = 5
const ROUNDS = 3
/** Below a few milliseconds a ratio says nothing: both sides get this much added. */
const FLOOR_MS = 5

/** Processor time of this thread (of the process where threadCpuUsage is missing), ms. */
function cpuMs(): number {
  const p = process as NodeJS.Process & { threadCpuUsage?: () => NodeJS.CpuUsage }
  const u = p.threadCpuUsage ? p.threadCpuUsage() : process.cpuUsage()
  return (u.user + u.system) / 1000
}

async function parse(h: Hostile, bytes: Uint8Array): Promise<string> {
  try {
    const r = await parseUpload(bytes, { fileName: `hostile.${h.format}`, format: h.format, currency: 'EUR', exponent: 2 }, {})
    return `${r.parts.reduce((a, p) => a + p.lines.length, 0)} lines`
  } catch (e) {
    if ((e as Error).name !== 'StatementFileError') throw e
    return 'refused'
  }
}

async function timed(h: Hostile, bytes: Uint8Array): Promise<{ ms: number; outcome: string }> {
  const start = cpuMs()
  const outcome = await parse(h, bytes)
  return { ms: cpuMs() - start, outcome }
}

describe.each(HOSTILE)('$name', (h) => {
  it('4x the size costs at most 8x the time', async () => {
    const encode = (n: number) => new TextEncoder().encode(h.make(n))
    const [small, large] = [encode(h.n), encode(4 * h.n)]
    expect(large.length / small.length).toBeGreaterThan(3.5)
    await parse(h, encode(10)) // the parsers loaded and compiled
    let [one, four] = [Infinity, Infinity]
    let growth = Infinity
    // A busy test run can slow any one round: a parser fails only when every round grows too fast.
    for (let round = 0; round < ROUNDS && growth >= BOUND; round++) {
      for (let k = 0; k < RUNS; k++) {
        const [a, b] = [await timed(h, small), await timed(h, large)]
        // The same kind of outcome at both sizes: not a quick refusal of the larger file.
        expect(b.outcome === 'refused').toBe(a.outcome === 'refused')
        one = Math.min(one, a.ms)
        four = Math.min(four, b.ms)
      }
      growth = (four + FLOOR_MS) / (one + FLOOR_MS)
    }
    expect(growth, `${one.toFixed(1)} ms at ${small.length} bytes, ${four.toFixed(1)} ms at ${large.length}`).toBeLessThan(BOUND)
  })
})
