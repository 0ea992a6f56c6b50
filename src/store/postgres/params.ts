/** Numbered parameters of multi-row statements on PostgreSQL (the hot paths' fixed texts). */

/** `($from, …), (…)` for `n` rows of `w` parameters numbered from `from`. */
export function placeholders(n: number, w: number, from = 1): string {
  const rows: string[] = []
  for (let r = 0; r < n; r++) {
    const ps: string[] = []
    for (let c = 0; c < w; c++) ps.push(`$${from + r * w + c}`)
    rows.push(`(${ps.join(', ')})`)
  }
  return rows.join(', ')
}
