/**
 * The atomic rate-limit take as one upsert, the same on both dialects but for the name of their
 * two-argument maximum (`max`, `GREATEST`) and how they write a parameter. Each dialect runs it in its
 * folder (sqlite/rate-limit.ts, postgres/rate-limit.ts).
 */
export function rateLimitSql(max: string, param: (i: number) => string): string {
  const [k, mw, dw, ml, dl] = [1, 2, 3, 4, 5].map(param)
  // Old values are seen by every SET expression (both dialects), so `room` is computed once per row.
  // A window from a slower clock counts against the newer window instead of resetting it.
  const minuteUsed = `(CASE WHEN ${mw} <= rate_limit_counters.minute_window THEN rate_limit_counters.minute_count ELSE 0 END)`
  const dayUsed = `(CASE WHEN ${dw} <= rate_limit_counters.day_window THEN rate_limit_counters.day_count ELSE 0 END)`
  const room = `(${minuteUsed} < ${ml} AND ${dayUsed} < ${dl})`
  const inc = `(CASE WHEN ${room} THEN 1 ELSE 0 END)`
  return `INSERT INTO rate_limit_counters (key_id, minute_window, minute_count, day_window, day_count, allowed)
VALUES (${k}, ${mw}, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END, ${dw}, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END, CASE WHEN ${ml} > 0 AND ${dl} > 0 THEN 1 ELSE 0 END)
ON CONFLICT (key_id) DO UPDATE SET
  minute_count = ${minuteUsed} + ${inc},
  minute_window = ${max}(rate_limit_counters.minute_window, ${mw}),
  day_count = ${dayUsed} + ${inc},
  day_window = ${max}(rate_limit_counters.day_window, ${dw}),
  allowed = ${inc}
RETURNING allowed, minute_count, day_count`
}
