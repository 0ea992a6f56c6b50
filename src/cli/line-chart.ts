/**
 * A balance line for the terminal (docs/forecast.md): one column per day, or per run of days on a
 * narrow terminal (the run's lowest balance, so that a low day is never smoothed away), scaled to
 * `height` rows between the lowest and highest balance with integer arithmetic; zero drawn as a
 * rule when the line crosses it. Readable without colour.
 */
import { formatMoney } from './money.js'
import { displayWidth, padDisplay } from './width.js'

export function lineChart(points: Array<{ date: string; minor: bigint }>, currency: string, columns: number, height = 12): string {
  if (points.length === 0) return ''
  const g = (m: bigint) => formatMoney(m, currency, { group: true })
  let lo = points[0].minor
  let hi = points[0].minor
  for (const p of points) {
    if (p.minor < lo) lo = p.minor
    if (p.minor > hi) hi = p.minor
  }
  const axis = Math.max(displayWidth(g(lo)), displayWidth(g(hi)))
  const width = Math.max(10, Math.min(points.length, columns - axis - 3))
  // Each column: the lowest balance of its days.
  const cols: bigint[] = []
  for (let c = 0; c < width; c++) {
    const a = Math.floor((c * points.length) / width)
    const b = Math.max(a + 1, Math.floor(((c + 1) * points.length) / width))
    let m = points[a].minor
    for (let i = a; i < b && i < points.length; i++) if (points[i].minor < m) m = points[i].minor
    cols.push(m)
  }
  const span = hi - lo
  const level = (v: bigint) => (span === 0n ? 0 : Number(((v - lo) * BigInt(height - 1) * 2n + span) / (2n * span)))
  const grid = Array.from({ length: height }, () => Array<string>(cols.length).fill(' '))
  if (lo < 0n && hi > 0n) {
    const z = level(0n)
    for (let c = 0; c < cols.length; c++) grid[z][c] = '┄'
  }
  let prev: number | undefined
  cols.forEach((v, c) => {
    const y = level(v)
    if (prev !== undefined && Math.abs(prev - y) > 1) {
      const [a, b] = prev < y ? [prev + 1, y - 1] : [y + 1, prev - 1]
      for (let k = a; k <= b; k++) grid[k][c] = '│'
    }
    grid[y][c] = '•'
    prev = y
  })
  const lines: string[] = []
  for (let r = height - 1; r >= 0; r--) {
    const label = r === height - 1 ? g(hi) : r === 0 ? g(lo) : ''
    lines.push(`${padDisplay(label, axis, true)} ┤${grid[r].join('')}`)
  }
  const first = points[0].date
  const last = points[points.length - 1].date
  const gap = Math.max(1, cols.length - first.length - last.length)
  lines.push(`${' '.repeat(axis)}  ${first}${' '.repeat(gap)}${last}`)
  const per = points.length > cols.length ? `; a column is ${Math.ceil(points.length / cols.length)} days (their lowest balance)` : ''
  lines.push(`• balance at the end of the day, ${currency}${lo < 0n && hi > 0n ? '; ┄ zero' : ''}${per}`)
  return `${lines.join('\n')}\n`
}
