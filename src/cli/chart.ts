/**
 * Report display helpers: an amount red when negative (formatMoney's text), and a
 * horizontal bar chart of money in and out per period, scaled to the terminal width with integer
 * arithmetic. Readable without colour: "in" bars are full blocks, "out" bars light shade, and each
 * line is labelled.
 */
import type { ChalkInstance } from 'chalk'
import { formatMoney, minorOf } from './money.js'
import { displayWidth, padDisplay } from './width.js'

/** Exact minor units of a report's JSON amount (reports give only amounts of their currency). */
function minorIn(amount: number, currency: string): bigint {
  const minor = minorOf(amount, currency)
  if (minor === undefined) throw new Error(`${amount} is not an amount in ${currency}`)
  return minor
}

/** A grouped amount, red when negative on a colour terminal (chalk at level 0 leaves it plain). */
export function signed(chalk: ChalkInstance, amount: number, currency: string): string {
  const text = formatMoney(minorIn(amount, currency), currency, { group: true })
  return amount < 0 ? chalk.red(text) : text
}

export interface ChartRow {
  label: string
  inflows: number
  outflows: number
}

export const IN_BLOCK = '█'
export const OUT_BLOCK = '░'

/** Bar length for `value` of `max` over `width` cells, rounded half up; at least 1 when value > 0. */
function barLength(value: bigint, max: bigint, width: number): number {
  if (value <= 0n || max <= 0n) return 0
  const len = Number((value * BigInt(width) * 2n + max) / (2n * max))
  return Math.max(1, Math.min(width, len))
}

/** The chart, one line per bar, at most `columns` wide. */
export function barChart(rows: ChartRow[], currency: string, columns: number, chalk: ChalkInstance): string {
  const g = (minor: bigint) => formatMoney(minor, currency, { group: true })
  const mins = rows.map((r) => ({ label: r.label, in: minorIn(r.inflows, currency), out: minorIn(r.outflows, currency) }))
  const max = mins.reduce((m, r) => (r.in > m ? r.in : r.out > m ? r.out : m), 0n)
  // Widths as the terminal shows them (width.ts): a locale's group separator or a label may not be one column a character.
  const labelWidth = Math.max(6, ...rows.map((r) => displayWidth(r.label)))
  const amountWidth = Math.max(4, ...mins.flatMap((r) => [displayWidth(g(r.in)), displayWidth(g(r.out))]))
  // label, " in  ", bar, " ", amount
  const barWidth = Math.max(10, columns - labelWidth - 5 - 1 - amountWidth - 1)
  const lines: string[] = []
  for (const r of mins) {
    const inBar = IN_BLOCK.repeat(barLength(r.in, max, barWidth))
    const outBar = OUT_BLOCK.repeat(barLength(r.out, max, barWidth))
    lines.push(
      `${padDisplay(r.label, labelWidth)} in  ${chalk.green(inBar)}${' '.repeat(barWidth - inBar.length)} ${padDisplay(g(r.in), amountWidth, true)}`,
    )
    lines.push(
      `${' '.repeat(labelWidth)} out ${chalk.red(outBar)}${' '.repeat(barWidth - outBar.length)} ${padDisplay(g(r.out), amountWidth, true)}`,
    )
  }
  const scale = max > 0n ? `; a full bar is ${formatMoney(max, currency, { group: true, code: true })}` : ''
  lines.push(`${IN_BLOCK} in (money received)  ${OUT_BLOCK} out (money paid), ${currency}${scale}`)
  return `${lines.join('\n')}\n`
}
