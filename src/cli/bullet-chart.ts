/**
 * Bullet bars for budget against actual (docs/budgets.md): per row a bar of the actual (█, red past
 * the budget where colour is on) and the budget's mark (│), every row on one scale, at most
 * `columns` wide whatever the terminal; integer arithmetic on minor units.
 */
import type { ChalkInstance } from 'chalk'
import { formatMoney } from './money.js'
import { printableLine } from './terminal-text.js'
import { displayWidth, padDisplay } from './width.js'

export interface BulletRow {
  label: string
  budget: bigint
  actual: bigint
}

/** A label cut to `width` columns, an ellipsis marking the cut. */
function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  for (const ch of text) {
    if (displayWidth(`${out}${ch}…`) > width) break
    out += ch
  }
  return `${out}…`
}

const cells = (value: bigint, max: bigint, width: number): number =>
  value <= 0n || max <= 0n ? 0 : Math.min(width, Number((value * BigInt(width) * 2n + max) / (2n * max)))

export function bulletChart(rows: BulletRow[], currency: string, columns: number, chalk: ChalkInstance): string {
  const g = (m: bigint) => formatMoney(m, currency, { group: true })
  const figures = rows.map((r) => `${g(r.actual)} / ${g(r.budget)}`)
  const figureWidth = Math.max(0, ...figures.map(displayWidth))
  const labelWidth = Math.min(Math.max(6, ...rows.map((r) => displayWidth(printableLine(r.label)))), Math.max(6, Math.floor(columns / 3)))
  const barWidth = Math.max(10, columns - labelWidth - figureWidth - 2)
  const max = rows.reduce((m, r) => (r.budget > m ? r.budget : r.actual > m ? r.actual : m), 0n)
  const lines = rows.map((r, i) => {
    const filled = cells(r.actual, max, barWidth)
    const mark = r.budget > 0n ? Math.min(barWidth - 1, Math.max(0, cells(r.budget, max, barWidth) - 1)) : -1
    let bar = ''
    for (let c = 0; c < barWidth; c++) bar += c === mark ? '│' : c < filled ? '█' : ' '
    const over = r.actual > r.budget
    const painted = over ? chalk.red(bar) : chalk.green(bar)
    const label = padDisplay(cut(printableLine(r.label), labelWidth), labelWidth)
    return `${label} ${painted} ${padDisplay(figures[i], figureWidth, true)}`
  })
  const scale = max > 0n ? `; the widest bar is ${formatMoney(max, currency, { group: true, code: true })}` : ''
  lines.push(`█ actual spending  │ budget, ${currency}${scale}`)
  return `${lines.join('\n')}\n`
}
