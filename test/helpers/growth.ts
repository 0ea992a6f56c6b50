/**
 * How much more processor time a larger input costs than a smaller one, for the tests that bound a
 * parser's growth (4x the input at most 8x the time: a linear parser costs about 4x, a quadratic
 * one 16x). Such a test goes in test/timing/, whose files each run in a process of their own
 * (vitest.timing.config.ts): in a heap other files had filled, a collection in the larger run cost as
 * much as the parse (8.3x for a linear parser on CI). A full collection before each run is worse: the larger run then regrows the heap it
 * shrank (9.6x for the QIF memo on Node 22).
 */

/**
 * This thread's processor time, ms (the process's where threadCpuUsage is missing). Linux counts it
 * in ticks of 4 ms: a run of a few milliseconds reads 0 or 4, so the sides of a ratio are ten ticks
 * or more, or get a floor added.
 */
export function cpuMs(): number {
  const p = process as NodeJS.Process & { threadCpuUsage?: () => NodeJS.CpuUsage }
  const u = p.threadCpuUsage ? p.threadCpuUsage() : process.cpuUsage()
  return (u.user + u.system) / 1000
}

async function timed<T>(run: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const start = cpuMs()
  const value = await run()
  return { ms: cpuMs() - start, value }
}

export interface Growth {
  /** (large + floor) / (small + floor), of the least time of each. */
  growth: number
  small: number
  large: number
  /** For the assertion's message. */
  text: string
}

/**
 * The least time of `runs` interleaved runs of each side, in rounds until the growth is under
 * `bound` (a busy machine can slow any one round: a parser fails only when every round grows too
 * fast). `each` sees both sides' results of every pair.
 */
export async function growth<T>(
  small: () => T | Promise<T>,
  large: () => T | Promise<T>,
  o: { bound: number; runs?: number; rounds?: number; floorMs?: number; each?: (small: T, large: T) => void },
): Promise<Growth> {
  const { runs = 5, rounds = 3, floorMs = 8 } = o
  let [one, four, g] = [Infinity, Infinity, Infinity]
  await small() // loaded and compiled
  for (let round = 0; round < rounds && g >= o.bound; round++) {
    for (let k = 0; k < runs; k++) {
      // Which side goes first alternates, so that a drift of the machine falls on both.
      const s = k % 2 === 0 ? await timed(small) : undefined
      const b = await timed(large)
      const a = s ?? (await timed(small))
      o.each?.(a.value, b.value)
      one = Math.min(one, a.ms)
      four = Math.min(four, b.ms)
    }
    g = (four + floorMs) / (one + floorMs)
  }
  return {
    growth: g,
    small: one,
    large: four,
    text: `${one.toFixed(1)} ms, then ${four.toFixed(1)} ms (${g.toFixed(2)}x with ${floorMs} ms added)`,
  }
}
