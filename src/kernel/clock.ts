/**
 * A monotonic clock in milliseconds, for durations. `performance.now()` would do, but the global
 * `performance` loads Node's perf_hooks on first use, which every command's start would pay for.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}
