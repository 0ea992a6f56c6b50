/** Summary statistics over a handful of samples. */

export interface Summary {
  n: number
  median: number
  mean: number
  min: number
  max: number
  /** Linear-interpolated 10th and 90th percentiles (equal to min/max when n is small). */
  p10: number
  p90: number
  samples: number[]
}

/** Percentile with linear interpolation between closest ranks; `sorted` must be ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  if (sorted.length === 1) return sorted[0]
  const rank = (p / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo)
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const n = sorted.length
  return {
    n,
    median: percentile(sorted, 50),
    mean: n === 0 ? Number.NaN : sorted.reduce((s, x) => s + x, 0) / n,
    min: n === 0 ? Number.NaN : sorted[0],
    max: n === 0 ? Number.NaN : sorted[n - 1],
    p10: percentile(sorted, 10),
    p90: percentile(sorted, 90),
    samples: [...samples],
  }
}

/** Element-wise a[i] / b[i] for paired samples (same round / same iteration). */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.min(a.length, b.length)
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push(a[i] / b[i])
  return out
}
